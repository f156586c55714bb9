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
  /** what to say when the value does not match `pattern`, in the portal's words (e.g. "Use 3–32 letters, digits or _") */
  patternMessage?: string;
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
    control = h(
      'select',
      common,
      (spec.options ?? []).map(([value, label]) => h('option', { value }, label)),
    );
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
  const label = h(
    'label',
    { for: id },
    spec.label,
    spec.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null,
  );
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
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing is the common case
  onSubmit(values: Record<string, string | boolean>, handle: FormHandle): Promise<string | void>;
}

export interface FormHandle {
  form: HTMLFormElement;
  fields: Map<string, Field>;
  status: HTMLElement;
  showErrors(error: unknown): void;
  clearErrors(): void;
}

/** The field's name without its note: "Username (optional)" → "Username". */
const fieldName = (spec: FieldSpec): string => spec.label.replace(/\s*\([^)]*\)\s*$/, '');

/**
 * Browser-side checks, in the portal's words: whole sentences shown under the field, never the browser's own
 * validationMessage (whose "Please match the requested format." read as if glued onto the label).
 */
function localProblem(control: Control, spec: FieldSpec): string | null {
  const v = control.validity;
  if (v.valid) return null;
  const name = fieldName(spec);
  if (v.valueMissing) return spec.type === 'file' ? 'Choose a file' : `${name} is required`;
  if (v.typeMismatch && control.type === 'email') return 'Enter an email address, like name@example.com';
  if (v.tooShort) return `${name} must be at least ${control.getAttribute('minlength')} characters`;
  if (v.tooLong) return `${name} must be at most ${control.getAttribute('maxlength')} characters`;
  if (v.patternMismatch) return spec.patternMessage ?? `${name} is not in the expected form`;
  if (v.rangeUnderflow || v.rangeOverflow) return `${name} is out of range`;
  return `${name} is not valid`;
}

/** Errors of the API that belong to one field (409s with no error.fields): shown at it, not in the form's alert. */
const FIELD_OF_CODE: Record<string, string> = { email_taken: 'email', username_taken: 'username' };

/** An API field message ("must NOT have fewer than 3 characters") as a sentence about the field. */
function fieldSentence(spec: FieldSpec, message: string): string {
  return /^[A-Z]/.test(message) ? message : `${fieldName(spec)} ${message}`;
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
      const problems: Record<string, string> = error instanceof ApiError ? { ...error.fields } : {};
      const own = error instanceof ApiError ? FIELD_OF_CODE[error.code] : undefined;
      if (own && fields.has(own) && !problems[own]) problems[own] = (error as ApiError).message;
      const unplaced: string[] = [];
      let first: Field | undefined;
      for (const [name, message] of Object.entries(problems)) {
        const f = fields.get(name);
        if (f) {
          f.setError(fieldSentence(f.spec, message));
          first ??= f;
        } else unplaced.push(`${name} ${message}`);
      }
      const message = error instanceof ApiError ? error.message : 'Something went wrong. Please try again.';
      if (!first || unplaced.length) {
        alert.replaceChildren(
          h('p', null, message),
          ...(unplaced.length
            ? [
                h(
                  'ul',
                  null,
                  unplaced.map((u) => h('li', null, u)),
                ),
              ]
            : []),
        );
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
        const problem = localProblem(f.control, f.spec);
        if (problem) {
          f.setError(problem);
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
