/**
 * What the light pages' scripts share (decision 1160): an element builder for Mantine's markup (the
 * class names and style variables the app's components render, whose CSS the build keeps from its
 * specimens, src/light/prerender.tsx), and tRPC calls on the same procedures the React pages use,
 * as plain fetches (no tRPC client in the first download).
 */

type Child = Node | string | null | undefined | false;

export function h(
  tag: string,
  attrs: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? 'true' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

let ids = 0;
export const newId = () => `light-${++ids}`;

/** Mantine's Text (a <p>): plain, size sm and/or dimmed, with extra style. */
export function text(content: Child | Child[], opts: { size?: 'sm'; dimmed?: boolean; style?: string } = {}) {
  const style = [
    opts.size === 'sm' ? '--text-fz:var(--mantine-font-size-sm);--text-lh:var(--mantine-line-height-sm)' : '',
    opts.style ?? '',
    opts.dimmed ? 'color:var(--mantine-color-dimmed)' : '',
  ]
    .filter(Boolean)
    .join(';');
  return h(
    'p',
    { style: style || null, class: 'mantine-focus-auto m_b6d8b162 mantine-Text-root', 'data-size': opts.size },
    ...(Array.isArray(content) ? content : [content]),
  );
}

/** Mantine's Title. */
export function title(order: 1 | 2, content: string, size?: 'h3' | 'h4', attrs: Record<string, string> = {}) {
  const v = size ?? `h${order}`;
  return h(
    `h${order}`,
    {
      style: `--title-fw:var(--mantine-${v}-font-weight);--title-lh:var(--mantine-${v}-line-height);--title-fz:var(--mantine-${v}-font-size)`,
      class: 'm_8a5d1357 mantine-Title-root',
      'data-size': size,
      'data-order': order,
      ...attrs,
    },
    content,
  );
}

export function stack(gap: 'xs' | 'sm' | 'md' | 'lg', ...children: Child[]) {
  return h(
    'div',
    {
      style: `--stack-gap:var(--mantine-spacing-${gap});--stack-align:stretch;--stack-justify:flex-start`,
      class: 'm_6d731127 mantine-Stack-root',
    },
    ...children,
  );
}

export function container(...children: Child[]) {
  return h(
    'div',
    {
      style: '--container-size:var(--container-size-sm);padding-block:var(--mantine-spacing-xl)',
      class: 'm_7485cace mantine-Container-root',
      'data-size': 'sm',
      'data-strategy': 'block',
    },
    ...children,
  );
}

/** Mantine's Alert: a colour, an optional title, the message. */
export function alert(
  color: string,
  message: Child | Child[],
  opts: { title?: string; role?: string; style?: string; attrs?: Record<string, string | number> } = {},
) {
  const id = newId();
  return h(
    'div',
    {
      style: `--alert-bg:var(--mantine-color-${color}-light);--alert-color:var(--mantine-color-${color}-light-color);--alert-bd:calc(0.0625rem * var(--mantine-scale)) solid transparent${opts.style ? `;${opts.style}` : ''}`,
      class: 'm_66836ed3 mantine-Alert-root',
      id,
      role: opts.role ?? 'alert',
      'aria-describedby': `${id}-body`,
      'aria-labelledby': opts.title ? `${id}-title` : null,
      ...opts.attrs,
    },
    h(
      'div',
      { class: 'm_a5d60502 mantine-Alert-wrapper' },
      h(
        'div',
        { class: 'm_667c2793 mantine-Alert-body' },
        opts.title &&
          h(
            'div',
            { class: 'm_6a03f287 mantine-Alert-title' },
            h('span', { id: `${id}-title`, class: 'm_698f4f23 mantine-Alert-label' }, opts.title),
          ),
        h(
          'div',
          { id: `${id}-body`, class: 'm_7fa78076 mantine-Alert-message' },
          ...(Array.isArray(message) ? message : [message]),
        ),
      ),
    ),
  );
}

export function anchor(href: string, label: string) {
  return h(
    'a',
    {
      class: 'mantine-focus-auto m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root',
      'data-inherit': true,
      'data-underline': 'always',
      href,
    },
    label,
  );
}

/** Mantine's Button (filled, or light in a colour). */
export function button(label: string, opts: { variant?: 'light'; color?: string } = {}) {
  const style =
    opts.variant === 'light'
      ? `--button-bg:var(--mantine-color-${opts.color}-light);--button-hover:var(--mantine-color-${opts.color}-light-hover);--button-color:var(--mantine-color-${opts.color}-light-color);--button-bd:calc(0.0625rem * var(--mantine-scale)) solid transparent`
      : '--button-color:var(--mantine-color-white)';
  return h(
    'button',
    {
      style,
      class: 'mantine-focus-auto mantine-active m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root',
      'data-variant': opts.variant,
      type: 'button',
    },
    h(
      'span',
      { class: 'm_80f1301b mantine-Button-inner' },
      h('span', { class: 'm_811560b9 mantine-Button-label' }, label),
    ),
  );
}

const CHECK =
  '<svg viewBox="0 0 10 7" fill="none" xmlns="http://www.w3.org/2000/svg" style="width:60%;height:60%" aria-hidden="true"><path d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z" fill="currentColor" fill-rule="evenodd" clip-rule="evenodd"></path></svg>';

/** Mantine's vertical Stepper, size sm: the steps before `active` completed, `active` in progress. */
export function stepper(
  active: number,
  steps: { label: string; description?: string | null; color?: string }[],
  attrs: Record<string, string> = {},
) {
  return h(
    'div',
    {
      style:
        '--stepper-icon-size:var(--stepper-icon-size-sm);--stepper-fz:var(--mantine-font-size-sm);--stepper-spacing:var(--mantine-spacing-sm)',
      class: 'm_cbb4ea7e mantine-Stepper-root',
      'data-size': 'sm',
      ...attrs,
    },
    h(
      'div',
      { class: 'm_aaf89d0b mantine-Stepper-steps', 'data-orientation': 'vertical', 'data-icon-position': 'left' },
      ...steps.map((s, i) => {
        const state = i < active ? 'data-completed' : i === active ? 'data-progress' : '';
        const icon = h('span', { class: 'm_1959ad01 mantine-Stepper-stepIcon', [state]: state ? true : null });
        if (i < active) {
          const done = h('span', { class: 'm_a79331dc mantine-Stepper-stepCompletedIcon' });
          done.innerHTML = CHECK;
          icon.append(done);
        } else icon.append(h('span', { class: 'm_8faaac38 mantine-Stepper-stepIconContent' }, String(i + 1)));
        return h(
          'button',
          {
            style: s.color ? `--step-color:var(--mantine-color-${s.color}-filled)` : null,
            class:
              'mantine-focus-auto m_833edb7e m_cbb57068 mantine-Stepper-step m_87cf2631 mantine-UnstyledButton-root',
            'data-icon-position': 'left',
            type: 'button',
            [state]: state ? true : null,
            tabindex: -1,
          },
          h(
            'span',
            { class: 'm_818e70b mantine-Stepper-stepWrapper' },
            icon,
            i < steps.length - 1 &&
              h('span', {
                class: 'm_6496b3f3 mantine-Stepper-verticalSeparator',
                'data-active': i < active ? true : null,
              }),
          ),
          h(
            'span',
            {
              class: 'm_1956aa2a mantine-Stepper-stepBody',
              'data-orientation': 'vertical',
              'data-icon-position': 'left',
            },
            h('span', { class: 'm_12051f6c mantine-Stepper-stepLabel' }, s.label),
            s.description && h('span', { class: 'm_164eea74 mantine-Stepper-stepDescription' }, s.description),
          ),
        );
      }),
    ),
  );
}

/** A tRPC call's failure: its message as the app's client shows it, and the 400's field errors. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
  }
}

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as {
    result?: { data: T };
    error?: { message?: string; data?: { fieldErrors?: Record<string, string> } };
  } | null;
  if (res.ok && body?.result) return body.result.data;
  throw new CallError(
    body?.error?.message ?? `${res.status}: ${res.statusText}`,
    res.status,
    body?.error?.data?.fieldErrors,
  );
}

/**
 * A tRPC query by GET. The status pages' first one is preloaded by the server with the page, at the
 * address written here (apps/api/src/http/web.ts lightStatusUrl): keep the two the same.
 */
export const query = async <T>(path: string, input: unknown) =>
  answer<T>(
    await fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { credentials: 'same-origin' }),
  );

export const mutate = async <T>(path: string, input: unknown) =>
  answer<T>(
    await fetch(`/trpc/${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    }),
  );

/** The last segment of the address: the page's private token. */
export const tokenOfPage = () =>
  decodeURIComponent(window.location.pathname.replace(/\/+$/, '').split('/').pop() ?? '');
