import { createHmac } from 'node:crypto';
import type { Config } from '../../env';
import { sha256 } from '../../lib/tokens';

/**
 * The homeowner's private status link (decision 0913): the token is an HMAC of the job id under the
 * session secret, so every email of the job can carry the link while the database keeps only the
 * token's SHA-256 (as the application status link's). Web route /quote/$token.
 */
export function jobStatusLink(config: Pick<Config, 'sessionSecret' | 'publicUrl'>, jobId: string) {
  const token = createHmac('sha256', config.sessionSecret).update(`job-status:${jobId}`).digest('base64url');
  return { token, hash: sha256(token), url: `${config.publicUrl}/quote/${token}` };
}
