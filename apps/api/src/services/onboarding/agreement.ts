import {
  currentAgreement,
  currentAgreements,
  enqueueResignNotices,
  insertAgreementVersion,
  insertSignature,
  signaturesOf,
  signatureWithText,
} from '@dn/db/queries/agreements';
import {
  type AgreementTextInput,
  normalizeSignatureName,
  ONBOARDING_MESSAGES,
  type SignAgreementInput,
} from '@dn/schema';
import type { Context, User } from '../../context';
import { AppError, isUniqueViolation } from '../../lib/app-error';
import { audit } from '../audit/audit';
import { agreementSignedEmail, agreementUpdatedEmail } from '../mail/onboarding-templates';
import { enqueueMail } from '../mail/outbox';
import { agreementPdf, agreementPdfName } from './agreement-pdf';
import { ownDealer } from './dealer';

/**
 * The dealer agreement (issue 38; decision 0950): owners write a new version per tier, dealers sign
 * the current one by typing their name and ticking the box. A signature is a clickwrap record: the
 * version, the text's SHA-256, the typed name, when, the IP and user agent; no path updates it.
 */

export async function ownAgreement(ctx: Context & { user: User }) {
  const dealer = await ownDealer(ctx);
  const current = await currentAgreement(ctx.db, dealer.tier);
  if (!current) throw new AppError('NOT_FOUND', ONBOARDING_MESSAGES.noTierAgreement);
  const signed = await signaturesOf(ctx.db, dealer.id);
  const mine = signed.find((s) => s.tier === dealer.tier);
  return {
    tier: dealer.tier,
    version: current.version,
    text: current.text,
    ...(mine ? { signedVersion: mine.version, signedAt: mine.signedAt.toISOString() } : {}),
  };
}

export async function signAgreement(ctx: Context & { user: User }, input: SignAgreementInput) {
  const dealer = await ownDealer(ctx);
  if (normalizeSignatureName(input.signatureName) !== normalizeSignatureName(dealer.fullName)) {
    throw new AppError('INVALID_INPUT', ONBOARDING_MESSAGES.signatureMismatch, {
      fieldErrors: { signatureName: ONBOARDING_MESSAGES.signatureMismatch },
    });
  }
  const signedAt = ctx.clock.now();
  const result = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const current = await currentAgreement(trx, dealer.tier);
      if (!current || current.version !== input.version) {
        throw new AppError('CONFLICT', ONBOARDING_MESSAGES.agreementOutdated);
      }
      const row = await insertSignature(trx, {
        dealerId: dealer.id,
        tier: dealer.tier,
        version: current.version,
        textSha256: current.textSha256,
        signatureName: input.signatureName.trim().replace(/\s+/g, ' '),
        signedAt,
        ipAddress: ctx.meta.ip,
        userAgent: ctx.meta.userAgent?.slice(0, 512) ?? null,
      });
      const pdf = await agreementPdf({
        ...row,
        text: current.text,
        ipAddress: ctx.meta.ip,
        userAgent: ctx.meta.userAgent?.slice(0, 512) ?? null,
        fullName: dealer.fullName,
        email: dealer.email,
        companyName: dealer.companyName,
      });
      await audit(trx, ctx, {
        eventType: 'agreement.signed',
        category: 'dealer',
        dealerId: dealer.id,
        message: `${dealer.fullName} signed the ${dealer.tier} Dealer Agreement v${current.version}`,
        details: { signatureId: row.id, tier: dealer.tier, version: current.version, textSha256: current.textSha256 },
      });
      await enqueueMail(
        trx,
        agreementSignedEmail(dealer, {
          publicUrl: ctx.config.publicUrl,
          tier: dealer.tier,
          version: current.version,
          pdf: {
            filename: agreementPdfName(row),
            contentType: 'application/pdf',
            content: pdf.toString('base64'),
            encoding: 'base64',
          },
        }),
      );
      return { id: row.id, version: row.version, signedAt: row.signedAt.toISOString(), alreadySigned: false };
    })
    .catch(async (err: unknown) => {
      // Signing the same version twice (a double click, two tabs) answers with the first signature.
      if (!isUniqueViolation(err)) throw err;
      const mine = (await signaturesOf(ctx.db, dealer.id)).find(
        (s) => s.tier === dealer.tier && s.version === input.version,
      );
      if (!mine) throw err;
      return { id: mine.id, version: mine.version, signedAt: mine.signedAt.toISOString(), alreadySigned: true };
    });
  if (!result.alreadySigned) ctx.mail.kick();
  return { ok: true as const, ...result };
}

/** The owner's editor: every tier's current text. */
export async function listAgreements(ctx: Context) {
  const rows = await currentAgreements(ctx.db);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/**
 * A new version of a tier's agreement; every active dealer of the tier is emailed to sign it (their
 * older signature no longer passes the gate of job offers). Saving the same text again is refused:
 * it would ask every dealer to sign what they signed.
 */
export async function setAgreementText(ctx: Context & { user: User }, input: AgreementTextInput) {
  const text = input.text.replace(/\r\n/g, '\n');
  const result = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const current = await currentAgreement(trx, input.tier);
      if (current && current.text === text) {
        throw new AppError('CONFLICT', 'This text is the current version already.');
      }
      const row = await insertAgreementVersion(trx, input.tier, text, ctx.user.username);
      const notified = await enqueueResignNotices(
        trx,
        input.tier,
        agreementUpdatedEmail({ publicUrl: ctx.config.publicUrl, tier: input.tier, version: row.version }),
      );
      await audit(trx, ctx, {
        eventType: 'agreement.version_created',
        category: 'admin',
        message: `${input.tier} Dealer Agreement v${row.version} published; ${notified} dealers asked to sign it`,
        details: { tier: input.tier, version: row.version, textSha256: row.textSha256, notified },
      });
      return { tier: row.tier, version: row.version, textSha256: row.textSha256, notified };
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err))
        throw new AppError('CONFLICT', 'Another version was saved at the same time. Reload and try again.');
      throw err;
    });
  ctx.mail.kick();
  return result;
}

/** The PDF of a dealer's signature (the latest, or `signatureId`), for the dealer or an admin. */
export async function signedAgreementPdf(ctx: Context, dealerId: string, signatureId: string | null) {
  const s = await signatureWithText(ctx.db, dealerId, signatureId);
  if (!s) throw new AppError('NOT_FOUND', 'No signed agreement');
  return { fileName: agreementPdfName(s), body: await agreementPdf(s) };
}
