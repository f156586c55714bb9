// Accessible forms: every input has a label, hints and errors are tied to it with aria-describedby, the API's error.fields land next to their field, and focus goes to the first problem.
import { ApiError } from './api.js';
import { h, uid, type Child } from './dom.js';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface FieldSpec {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'textarea' | 'checkbox' | 'select' | 'file' | 'search' | 'number';
  value?: string | boolean | null;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  minlength?: number;
  maxlength?: number;
  pattern?: string;
  accept?: string;
  inputmode?: string;
  options?: Array<[value: string, label: string]>;
  /** extra attributes for the control */
  attrs?: Record<string, unknown>;
}

export interface Field {
  spec: FieldSpec;
  wrapper: HTMLElement;
  control: Control;
  setError(message: string | null): void;
  value(): string | boolean;
}

export function field(spec: FieldSpec): Field {
  const id = uid(`f-${spec.name}`);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const common = {
    id,
    name: spec.name,
    required: spec.required,
    autocomplete: spec.autocomplete,
    'aria-describedby': [spec.hint ? hintId : null, errorId].filter(Boolean).join(' '),
    ...spec.attrs,
  };
  let control: Control;
  if (spec.type === 'textarea') {
    control = h('textarea', { ...common, maxlength: spec.maxlength, minlength: spec.minlength, rows: 4 });
    control.value = String(spec.value ?? '');
  } else if (spec.type === 'select') {
    control = h('select', common, (spec.options ?? []).map(([value, label]) => h('option', { value }, label)));
    control.value = String(spec.value ?? '');
  } else {
    control = h('input', {
      ...common,
      type: spec.type ?? 'text',
      minlength: spec.minlength,
      maxlength: spec.maxlength,
      pattern: spec.pattern,
      accept: spec.accept,
      inputmode: spec.inputmode,
    });
    if (spec.type === 'checkbox') (control as HTMLInputElement).checked = Boolean(spec.value);
    else if (spec.type !== 'file') control.value = String(spec.value ?? '');
  }
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const hint = spec.hint ? h('p', { class: 'hint', id: hintId }, spec.hint) : null;
  const label = h('label', { for: id }, spec.label, spec.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null);
  const wrapper =
    spec.type === 'checkbox'
      ? h('div', { class: 'field field-check' }, control, label, hint, error)
      : h('div', { class: 'field' }, label, control, hint, error);
  return {
    spec,
    wrapper,
    control,
    setError(message) {
      error.textContent = message ?? '';
      error.hidden = !message;
      if (message) control.setAttribute('aria-invalid', 'true');
      else control.removeAttribute('aria-invalid');
    },
    value: () => (spec.type === 'checkbox' ? (control as HTMLInputElement).checked : control.value),
  };
}

export interface FormOptions {
  fields: FieldSpec[];
  submitLabel: string;
  /** an accessible name for the form */
  label?: string;
  /** content placed before the submit button */
  extra?: Child;
  /** runs with the values; may return a success message to announce */
  onSubmit(values: Record<string, string | boolean>, handle: FormHandle): Promise<string | void>;
}

export interface FormHandle {
  form: HTMLFormElement;
  fields: Map<string, Field>;
  status: HTMLElement;
  showErrors(error: unknown): void;
  clearErrors(): void;
}

/** Messages for browser-side checks, closer to the API's wording than the browser's defaults. */
function localProblem(control: Control): string | null {
  if (control.validity.valid) return null;
  if (control.validity.valueMissing) return 'is required';
  if (control.validity.typeMismatch && control.type === 'email') return 'must be an email address';
  if (control.validity.tooShort) return `must be at least ${control.getAttribute('minlength')} characters`;
  if (control.validity.tooLong) return `must be at most ${control.getAttribute('maxlength')} characters`;
  return control.validationMessage || 'is not valid';
}

export function createForm(options: FormOptions): FormHandle {
  const fields = new Map(options.fields.map((spec) => [spec.name, field(spec)] as const));
  const alert = h('div', { class: 'form-error', role: 'alert', hidden: true });
  const status = h('p', { class: 'form-status', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, options.submitLabel);
  const form = h(
    'form',
    { novalidate: true, 'aria-label': options.label },
    alert,
    [...fields.values()].map((f) => f.wrapper),
    options.extra,
    h('div', { class: 'actions' }, submit),
    status,
  );

  const handle: FormHandle = {
    form,
    fields,
    status,
    clearErrors() {
      for (const f of fields.values()) f.setError(null);
      alert.hidden = true;
      alert.replaceChildren();
    },
    showErrors(error) {
      const problems = error instanceof ApiError ? error.fields : {};
      const unplaced: string[] = [];
      let first: Field | undefined;
      for (const [name, message] of Object.entries(problems)) {
        const f = fields.get(name);
        if (f) {
          f.setError(`${f.spec.label} ${message}`);
          first ??= f;
        } else unplaced.push(`${name} ${message}`);
      }
      const message = error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
      if (!first || unplaced.length) {
        alert.replaceChildren(h('p', null, message), ...(unplaced.length ? [h('ul', null, unplaced.map((u) => h('li', null, u)))] : []));
        alert.hidden = false;
      }
      if (first) first.control.focus();
      else {
        alert.tabIndex = -1;
        alert.focus();
      }
    },
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      handle.clearErrors();
      status.textContent = '';
      let firstBad: Field | undefined;
      for (const f of fields.values()) {
        const problem = localProblem(f.control);
        if (problem) {
          f.setError(`${f.spec.label} ${problem}`);
          firstBad ??= f;
        }
      }
      if (firstBad) {
        firstBad.control.focus();
        return;
      }
      const values = Object.fromEntries([...fields].map(([name, f]) => [name, f.value()]));
      submit.disabled = true;
      form.setAttribute('aria-busy', 'true');
      try {
        const message = await options.onSubmit(values, handle);
        if (message) status.textContent = message;
      } catch (error) {
        handle.showErrors(error);
      } finally {
        submit.disabled = false;
        form.removeAttribute('aria-busy');
      }
    })();
  });
  return handle;
}
