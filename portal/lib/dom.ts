// A tiny hyperscript for real DOM nodes: text always goes in as text (never HTML), events through addEventListener.

export type Child = Node | string | number | null | undefined | false | Child[];
export type Props = Record<string, unknown>;

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) for (const c of child) append(parent, c);
  else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
}

function applyProps(el: Element, props: Props | null | undefined): void {
  if (!props) return;
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    } else if (key === 'class') {
      el.setAttribute('class', String(value));
    } else if (key === 'value' && 'value' in el) {
      (el as HTMLInputElement).value = String(value);
    } else if (key === 'checked' && 'checked' in el) {
      (el as HTMLInputElement).checked = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

/** Replaces the content of `parent`. */
export function mount(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

let counter = 0;
/** A unique id for label/aria wiring. */
export function uid(prefix: string): string {
  return `${prefix}-${++counter}`;
}

/** Moves focus to a heading or region after a page change, so screen readers hear where they are. */
export function focusHeading(root: ParentNode = document): void {
  const heading = root.querySelector<HTMLElement>('h1');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

export function setTitle(title: string): void {
  document.title = `${title} · Game Platform`;
}

/** A captioned table in a focusable, labelled scroll region (wide tables scroll on a phone), or a line saying it is empty. */
export function dataTable(label: string, head: string[], rows: Child[][]): HTMLElement {
  if (rows.length === 0) return h('p', null, `No ${label.toLowerCase()}.`);
  return h(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': label },
    h(
      'table',
      null,
      h('caption', null, label),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((r) =>
          h(
            'tr',
            null,
            r.map((c) => h('td', null, c)),
          ),
        ),
      ),
    ),
  );
}
