// The Builds view's upload: a build's zip dropped on the zone (or chosen with the file input) and sent over the
// resumable upload API in parts, with a progress bar; an interrupted upload resumes with the parts it lacks
// (docs/game-developers.md, "Studio console").
import { ApiError, api, failureOf, SDK_HEADER } from '../../lib/api.js';
import { h, mount, uid } from '../../lib/dom.js';

/** Bytes per part: small enough for a slow link to send one within the request timeout (the CLI's default too). */
const PART_BYTES = 8 * 1024 * 1024;
/** Times a part is sent again after the network failed or the service answered 5xx. */
const RETRIES = 2;

interface Upload {
  id: string;
  size: number;
  parts: Array<{ part: number; size: number }>;
  max_part_bytes: number;
}
interface NewBuild {
  number: number;
  version: string;
}

const kb = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en-GB')} KB`;

/** PUTs one part with XMLHttpRequest (fetch reports no upload progress); `sent` is told the part's bytes sent so far. */
function putPart(url: string, body: Blob, sent: (bytes: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(SDK_HEADER)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => sent(event.loaded);
    xhr.onerror = () =>
      reject(new ApiError(0, 'network_error', 'The service cannot be reached. Check your connection and try again.'));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      void failureOf(new Response(xhr.responseText || null, { status: xhr.status })).then(reject);
    };
    xhr.send(body);
  });
}

/** The error in the API's words, with each field of game.json (validation_failed) or the refused file (invalid_build). */
function explain(error: unknown): HTMLElement[] {
  if (!(error instanceof ApiError)) return [h('p', null, 'Something went wrong. Please try again.')];
  const file = typeof error.extra.file === 'string' ? error.extra.file : null;
  const fields = Object.entries(error.fields);
  const said: HTMLElement[] = [
    h('p', null, file && !error.message.includes(file) ? `${file}: ${error.message}` : error.message),
  ];
  if (fields.length)
    said.push(
      h(
        'ul',
        null,
        fields.map(([name, message]) => h('li', null, `${name}: ${message}`)),
      ),
    );
  return said;
}

/**
 * The upload panel of a game (`base` is /v1/studio/games/{slug}); `uploaded` runs with each new build, to list it.
 */
export function uploadPanel(base: string, uploaded: (build: NewBuild) => Promise<void>): HTMLElement {
  const inputId = uid('build-zip');
  const progressId = uid('upload-progress');
  const input = h('input', {
    id: inputId,
    type: 'file',
    accept: '.zip,application/zip',
    'aria-describedby': `${inputId}-hint`,
  });
  const progress = h('progress', { id: progressId, max: 1, value: 0 });
  const progressLabel = h('label', { for: progressId }, 'Upload');
  const progressText = h('p', { class: 'hint' });
  const progressBox = h('div', { class: 'upload-progress', hidden: true }, progressLabel, progress, progressText);
  const status = h('p', { role: 'status', class: 'form-status' });
  const alert = h('div', { class: 'form-error', role: 'alert', hidden: true });
  const resume = h('button', { type: 'button', class: 'button' }, 'Resume the upload');
  // The button's display would win over its hidden attribute: the row around it is hidden instead.
  const resumeRow = h('p', { hidden: true }, resume);
  const zone = h(
    'div',
    { class: 'dropzone' },
    h('p', null, 'Drop the build’s zip here, or choose it:'),
    h('label', { for: inputId }, 'Build zip'),
    input,
    h(
      'p',
      { class: 'hint', id: `${inputId}-hint` },
      'The build folder zipped, with game.json at its top. It becomes the next build, not released: preview it, then release it.',
    ),
  );
  let busy = false;
  /** what a Resume continues: the file and its upload on the service */
  let pending: { file: File; upload: string } | null = null;

  const show = (sent: number, total: number) => {
    progress.max = total;
    progress.value = sent;
    const text = `${kb(sent)} of ${kb(total)} sent (${total ? Math.floor((sent / total) * 100) : 100}%)`;
    progress.textContent = text;
    progressText.textContent = text;
  };

  async function send(file: File, resumeId: string | null): Promise<void> {
    if (busy) return;
    busy = true;
    zone.classList.remove('dragging');
    input.disabled = true;
    resumeRow.hidden = true;
    alert.hidden = true;
    progressBox.hidden = false;
    progressLabel.textContent = `Upload of ${file.name}`;
    status.textContent = `Uploading ${file.name}…`;
    let upload: Upload | null = null;
    try {
      upload = resumeId
        ? (await api<Upload>('GET', `${base}/uploads/${encodeURIComponent(resumeId)}`)).data
        : (await api<Upload>('POST', `${base}/uploads`, { body: { size: file.size } })).data;
      pending = { file, upload: upload.id };
      const partBytes = Math.min(PART_BYTES, upload.max_part_bytes);
      const count = Math.max(1, Math.ceil(file.size / partBytes));
      const have = new Map(upload.parts.map((p) => [p.part, p.size]));
      let stored = 0;
      show(0, file.size);
      for (let part = 1; part <= count; part++) {
        const start = (part - 1) * partBytes;
        const blob = file.slice(start, Math.min(file.size, start + partBytes));
        if (have.get(part) !== blob.size) {
          const url = `${base}/uploads/${encodeURIComponent(upload.id)}/parts/${part}`;
          for (let attempt = 0; ; attempt++) {
            try {
              await putPart(url, blob, (bytes) => show(stored + bytes, file.size));
              break;
            } catch (error) {
              const again = error instanceof ApiError && (error.status === 0 || error.status >= 500);
              if (!again || attempt >= RETRIES) throw error;
            }
          }
        }
        stored += blob.size;
        show(stored, file.size);
      }
      status.textContent = `Checking ${file.name}…`;
      const { data: build } = await api<NewBuild>('POST', `${base}/uploads/${encodeURIComponent(upload.id)}/complete`);
      pending = null;
      input.value = '';
      status.textContent = `Build ${build.number} (${build.version}) is uploaded: preview it or release it in the list.`;
      // The build is made, whether or not the list refreshes now: the status above says so.
      await uploaded(build).catch(() => undefined);
    } catch (error) {
      // A refused zip ends the upload on the service (422), as does an upload gone (404): anything else can resume.
      const over = !(error instanceof ApiError) || error.status === 422 || error.status === 404 || !upload;
      if (over) pending = null;
      status.textContent = '';
      mount(alert, h('p', null, `${file.name} was not uploaded.`), ...explain(error));
      alert.hidden = false;
      resumeRow.hidden = pending === null;
      if (pending === null) progressBox.hidden = true;
    } finally {
      busy = false;
      input.disabled = false;
    }
  }

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void send(file, null);
  });
  resume.addEventListener('click', () => {
    if (pending) void send(pending.file, pending.upload);
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length !== 1) {
      mount(alert, h('p', null, 'Drop one file: the build folder zipped, with game.json at its top.'));
      alert.hidden = false;
      return;
    }
    void send(files[0]!, null);
  });

  return h(
    'section',
    { class: 'panel upload', 'aria-labelledby': `${inputId}-heading` },
    h('h3', { id: `${inputId}-heading` }, 'Upload a build'),
    zone,
    progressBox,
    alert,
    resumeRow,
    status,
  );
}
