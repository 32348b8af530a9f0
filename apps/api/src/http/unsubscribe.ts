import { UNSUBSCRIBE_MESSAGES as M } from '@dn/schema/mail-preferences';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { alreadyUnsubscribed, unsubscribe } from '../services/accounts/email-preferences';
import { escapeHtml } from '../services/mail/render';
import { readUnsubscribeToken, UNSUBSCRIBE_PATH } from '../services/mail/unsubscribe';
import type { HttpRoute } from './route';

/**
 * One-click unsubscribe (RFC 8058; decision 0983), the link in a digest's or reminder's
 * List-Unsubscribe header and last line. Public: the signed token is the authority. A GET (a person's
 * click, or a mail scanner's prefetch) changes nothing and shows a page with a button; the POST,
 * from that button or from the mail provider's one-click, turns the category off.
 */

const tokenOf = (req: FastifyRequest) => (req.query as { token?: unknown } | undefined)?.token;

function page(reply: FastifyReply, status: number, body: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('referrer-policy', 'no-referrer')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${M.title}</title></head><body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem">${body}</body></html>`,
    );
}

export const unsubscribePageRoute: HttpRoute = {
  method: 'GET',
  url: UNSUBSCRIBE_PATH,
  operationId: 'email.unsubscribePage',
  access: 'public',
  summary: "The page of an email's unsubscribe link (token in the query): a button that confirms; changes nothing",
  responds: 'text/html page',
  async handle({ deps, req, reply }) {
    const t = readUnsubscribeToken(deps.config.sessionSecret, tokenOf(req));
    if (!t) return page(reply, 400, `<p>${escapeHtml(M.invalid)}</p>`);
    if (await alreadyUnsubscribed(deps.db, t)) {
      return page(reply, 200, `<p>${escapeHtml(M.already(t.category, t.address))}</p>`);
    }
    const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(String(tokenOf(req)))}`;
    return page(
      reply,
      200,
      `<h1>${M.title}</h1><p>${escapeHtml(M.ask(t.category, t.address))}</p><form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${M.button}</button></form>`,
    );
  },
};

export const unsubscribeRoute: HttpRoute = {
  method: 'POST',
  url: UNSUBSCRIBE_PATH,
  operationId: 'email.unsubscribe',
  access: 'public',
  summary:
    'One-click unsubscribe (RFC 8058): the token in the query; any body (List-Unsubscribe=One-Click). Stops that kind of email to that address',
  errors: { '400': 'The token is not a valid unsubscribe token: nothing changes' },
  // The provider posts a form (or multipart) body, which the token makes irrelevant.
  rawBody: true,
  async handle({ deps, req, reply }) {
    const t = readUnsubscribeToken(deps.config.sessionSecret, tokenOf(req));
    const html = /text\/html/.test(req.headers.accept ?? '');
    if (!t) {
      return html
        ? page(reply, 400, `<p>${escapeHtml(M.invalid)}</p>`)
        : reply.status(400).send({ message: M.invalid });
    }
    await unsubscribe(deps, req.meta(), t);
    if (html) return page(reply, 200, `<p>${escapeHtml(M.done(t.category, t.address))}</p>`);
    return { ok: true, category: t.category };
  },
};
