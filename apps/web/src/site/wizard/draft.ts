import { initialValues, type WizardValues } from './form';

/**
 * The half-filled application, kept in this browser until it is submitted (issue 36, decision 0991).
 * The referral picker's choice is not kept: its reference is good for 24 hours only.
 */
const KEY = 'dn.wizard.draft';

interface Draft {
  values: WizardValues;
  step: number;
}

const blank = (v: WizardValues) =>
  JSON.stringify({ ...v, recruiterId: '', referredBy: '' }) ===
  JSON.stringify({ ...initialValues(undefined), recruiterId: '', referredBy: '' });

export function loadDraft(): Draft | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const d = JSON.parse(raw) as Draft;
    // A draft from an older form keeps the fields it knows; new ones start empty.
    return { values: { ...initialValues(undefined), ...d.values }, step: Number(d.step) || 0 };
  } catch {
    return null;
  }
}

/** Saves the answers, or forgets them when nothing is typed. */
export function saveDraft(values: WizardValues, step: number) {
  try {
    if (blank(values)) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify({ values: { ...values, referredBy: '' }, step }));
  } catch {
    // Storage full or disabled: the wizard works without a draft.
  }
}

export function clearDraft() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // see saveDraft
  }
}

export const hasDraft = () => loadDraft() !== null;
