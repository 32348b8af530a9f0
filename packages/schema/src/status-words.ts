/**
 * The words of the two private status pages (the homeowner's installation, the applicant's
 * application), without zod: the light pages (decision 1160) import them by this module's own path;
 * jobs.ts and self-service.ts re-export them.
 */

export const JOB_STATUSES = ['offered', 'unrouted', 'accepted', 'scheduled', 'installed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  offered: 'Finding an installer',
  unrouted: 'Waiting for an installer',
  accepted: 'Installer assigned',
  scheduled: 'Installation scheduled',
  installed: 'Installed',
  cancelled: 'Cancelled',
};

/** What the status page says about each stage (SPEC section 10: review in 2-3 business days, call within 5). */
export const APPLICATION_STAGES = ['received', 'under_review', 'approved', 'rejected'] as const;
export type ApplicationStage = (typeof APPLICATION_STAGES)[number];
export const APPLICATION_STAGE_LABELS: Record<ApplicationStage, string> = {
  received: 'Received',
  under_review: 'Under review',
  approved: 'Approved',
  rejected: 'Rejected',
};
