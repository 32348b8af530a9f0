import { US_STATE_NAMES } from '@dn/schema';
import { quoteRequestErrors, US_STATES } from '@dn/schema/quote-rules';
import { recruiterFromCookie } from '../shared/lib/referral';
import { alert, CallError, h, mutate } from './dom';
import { takeOverLight } from './take-over';

/**
 * /quote without the app (decision 1160): the prerendered QuoteForm (site/jobs/QuoteForm.tsx)
 * made to work by this script. The same request as the React form (jobs.requestQuote, the values
 * built as its `siteInput` builds them, the recruiter from the cookie, the honeypot sent when
 * filled), checked first with the schema's rules and messages (quote-rules.ts); a 400's field errors shown
 * under their fields; the answer brought into view and focused. Links boot the app.
 */
const form = document.querySelector<HTMLFormElement>('#root form');
const fieldOf = (name: string) => form?.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[data-path="${name}"]`);

// The State field: Mantine's searchable Select finds a state by its name or its code (issue 47): the
// code typed exactly first ("AK" is Alaska), then the labels containing the text, in a listbox of options.
const STATE_LABELS = US_STATES.map((code) => `${US_STATE_NAMES[code] ?? code} (${code})`);
function stateCode(typed: string): string {
  const q = typed.trim().toLowerCase();
  if (!q) return '';
  const code = US_STATES.find(
    (c, i) => c.toLowerCase() === q || STATE_LABELS[i]?.toLowerCase() === q || US_STATE_NAMES[c]?.toLowerCase() === q,
  );
  if (code) return code;
  const found = STATE_LABELS.filter((l) => l.toLowerCase().includes(q));
  return (found.length === 1 && US_STATES[STATE_LABELS.indexOf(found[0] as string)]) || typed.trim();
}
function findStates(typed: string): string[] {
  const q = typed.trim().toLowerCase();
  if (!q) return STATE_LABELS;
  const exact = STATE_LABELS.filter((_, i) => US_STATES[i]?.toLowerCase() === q);
  return [...exact, ...STATE_LABELS.filter((l) => !exact.includes(l) && l.toLowerCase().includes(q))];
}
const stateInput = fieldOf('state') as HTMLInputElement | null | undefined;
if (stateInput) {
  const list = h('div', {
    id: 'light-state-options',
    role: 'listbox',
    'aria-label': 'State',
    style:
      'position:absolute;left:0;right:0;top:100%;z-index:300;margin-top:4px;max-height:220px;overflow:auto;background:var(--mantine-color-body);border:1px solid var(--mantine-color-gray-3);border-radius:var(--mantine-radius-sm);box-shadow:var(--mantine-shadow-md);padding:4px;display:none',
  });
  stateInput.parentElement?.append(list);
  stateInput.setAttribute('aria-controls', list.id);
  stateInput.setAttribute('autocomplete', 'off');
  const close = () => {
    list.style.display = 'none';
    stateInput.setAttribute('aria-expanded', 'false');
  };
  const choose = (label: string) => {
    stateInput.value = label;
    close();
    stateInput.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const open = () => {
    list.replaceChildren(
      ...findStates(stateInput.value).map((label) => {
        const option = h(
          'div',
          {
            role: 'option',
            'aria-selected': 'false',
            style:
              'padding:6px 10px;border-radius:var(--mantine-radius-sm);cursor:pointer;font-size:var(--mantine-font-size-sm)',
          },
          label,
        );
        option.addEventListener('mousedown', (e) => {
          e.preventDefault();
          choose(label);
        });
        return option;
      }),
    );
    list.style.display = list.childElementCount ? 'block' : 'none';
    stateInput.setAttribute('aria-expanded', String(list.childElementCount > 0));
  };
  stateInput.addEventListener('input', (e) => {
    if (e.isTrusted || list.style.display === 'block') open();
  });
  stateInput.addEventListener('focus', open);
  stateInput.addEventListener('blur', () => {
    close();
    const i = US_STATES.indexOf(stateCode(stateInput.value) as (typeof US_STATES)[number]);
    if (i >= 0) stateInput.value = STATE_LABELS[i] as string;
  });
  stateInput.addEventListener('keydown', (e) => {
    const first = list.firstElementChild;
    if (e.key === 'Escape') close();
    else if (e.key === 'Enter' && list.style.display === 'block' && first) {
      e.preventDefault();
      choose(first.textContent ?? '');
    }
  });
}

/** What the React form sends (QuoteForm's onSubmit with HomeFields' siteInput). */
function values(): Record<string, unknown> {
  const v = (name: string) => fieldOf(name)?.value ?? '';
  const num = (name: string) => (v(name) === '' ? {} : { [name]: Number(v(name).replace(/,/g, '')) });
  const consent = form?.querySelector<HTMLInputElement>('[data-path="consent"]')?.checked ?? false;
  const recruiterId = recruiterFromCookie();
  return {
    fullName: v('fullName'),
    email: v('email'),
    phone: v('phone'),
    street: v('street'),
    city: v('city'),
    state: stateCode(v('state')),
    zipCode: v('zipCode'),
    ...num('atticSqFt'),
    ...num('fans'),
    ...(v('notes').trim() ? { notes: v('notes') } : {}),
    consent,
    ...(v('website') ? { website: v('website') } : {}),
    ...(recruiterId ? { recruiterId } : {}),
  };
}

/** A field's error as Mantine draws it (the attributes and the message under the input). */
function setError(name: string, message: string | undefined) {
  const input = fieldOf(name);
  if (!input) return;
  const checkbox = input.type === 'checkbox';
  const root = input.closest<HTMLElement>(checkbox ? '.mantine-Checkbox-root' : '.mantine-InputWrapper-root');
  const wrapper = input.closest<HTMLElement>('.mantine-Input-wrapper');
  const errorId = `${input.id}-error`;
  document.getElementById(errorId)?.remove();
  for (const el of [root && !checkbox ? root : null, wrapper, input])
    el?.toggleAttribute('data-error', Boolean(message));
  if (!message) {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    wrapper?.style.removeProperty('--input-margin-bottom');
    return;
  }
  input.setAttribute('data-error', 'true');
  if (!checkbox) input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', errorId);
  if (checkbox) {
    input
      .closest('.mantine-Checkbox-body')
      ?.querySelector('.mantine-Checkbox-labelWrapper')
      ?.append(
        h(
          'p',
          { class: 'm_8e8a99cc mantine-Checkbox-error m_8f816625 mantine-InputWrapper-error', id: errorId },
          message,
        ),
      );
    return;
  }
  const component = /mantine-(\w+)-root/.exec(root?.className ?? '')?.[1] ?? 'TextInput';
  wrapper?.style.setProperty('--input-margin-bottom', 'calc(var(--mantine-spacing-xs) / 2)');
  wrapper?.after(
    h(
      'p',
      {
        style: '--input-error-size:calc(var(--mantine-font-size-sm) - calc(0.125rem * var(--mantine-scale)))',
        class: `m_8f816625 mantine-InputWrapper-error mantine-${component}-error`,
        'data-size': 'sm',
        id: errorId,
      },
      message,
    ),
  );
  if (root && component === 'Select') root.dataset.error = 'true';
}

const FIELDS = [...(form?.querySelectorAll<HTMLElement>('[data-path]') ?? [])].map((el) => el.dataset.path as string);
function showErrors(errors: Record<string, string>) {
  for (const name of FIELDS) setError(name, errors[name]);
  const first = FIELDS.find((n) => errors[n]);
  if (first) fieldOf(first)?.focus();
}

// Mantine's form clears a field's error as it changes.
form?.addEventListener('input', (e) => {
  const name = (e.target as HTMLElement | null)?.dataset?.path;
  if (name) setError(name, undefined);
});

// The attic size and fans fields' up and down controls (Mantine's NumberInput: whole numbers, from 0).
form?.addEventListener('click', (e) => {
  const control = (e.target as Element).closest<HTMLButtonElement>('.mantine-NumberInput-control');
  if (!control) return;
  e.preventDefault();
  const input = control.closest('.mantine-NumberInput-root')?.querySelector<HTMLInputElement>('input');
  if (!input) return;
  const n = Number.parseInt(input.value, 10);
  const next = Number.isNaN(n) ? 0 : Math.max(0, n + (control.dataset.direction === 'up' ? 1 : -1));
  input.value = String(next);
  input.dispatchEvent(new Event('input', { bubbles: true }));
});

// The notes grow with their text (Mantine's autosize).
const notes = fieldOf('notes');
notes?.addEventListener('input', () => {
  notes.style.height = 'auto';
  notes.style.height = `${notes.scrollHeight + 2}px`;
});

const submit = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
let sending = false;

function setSending(on: boolean) {
  if (!submit) return;
  sending = on;
  submit.disabled = on;
  submit.toggleAttribute('data-loading', on);
  submit.querySelector('.mantine-Button-label')?.toggleAttribute('data-loading', on);
  submit.querySelector('.mantine-Button-loader')?.remove();
  if (on)
    submit.prepend(
      h(
        'span',
        {
          style: 'opacity:1;transform:translate(-50%, calc(-50% + calc(0.0625rem * var(--mantine-scale))))',
          class: 'm_a25b86ee mantine-Button-loader',
          'aria-hidden': 'true',
        },
        h('span', {
          style: '--loader-size:calc(var(--button-height) / 1.8);--loader-color:var(--button-color)',
          class: 'm_b34414df m_5ae2e3c mantine-Loader-root',
        }),
      ),
    );
}

function showReceived() {
  const received = alert(
    'green',
    'Thank you! We are finding a certified installer near you. We emailed you a private link to follow your request: it says by when an installer will answer, and the installer calls you to schedule the work.',
    { title: 'Request received', role: 'status', attrs: { 'data-testid': 'quote-received', tabindex: -1 } },
  );
  form?.replaceWith(received);
  received.scrollIntoView({ block: 'center' });
  received.focus({ preventScroll: true });
}

let failure: HTMLElement | null = null;
async function send() {
  if (!form || sending) return;
  failure?.remove();
  failure = null;
  const input = values();
  // The schema's rules and messages, without zod (quote-rules.ts; a test proves them the same).
  const errors = quoteRequestErrors(input);
  if (Object.keys(errors).length > 0) {
    showErrors(errors);
    return;
  }
  showErrors({});
  setSending(true);
  try {
    await mutate('jobs.requestQuote', input);
    showReceived();
  } catch (err) {
    const fields = err instanceof CallError ? err.fieldErrors : undefined;
    if (fields) showErrors(fields);
    else {
      failure = alert('red', err instanceof Error ? err.message : String(err));
      submit?.before(failure);
    }
  } finally {
    setSending(false);
  }
}

// The submit button's click (Enter in a field clicks it too) is handled here, before the document's
// listener that boots the app for the page's other buttons and links.
form?.addEventListener('click', (e) => {
  if ((e.target as Element).closest('button[type="submit"]')) {
    e.preventDefault();
    void send();
  }
});
form?.addEventListener('submit', (e) => {
  e.preventDefault();
  void send();
});

takeOverLight({ queries: () => [] });
