// The SDK guide served at /docs/sdk (the README carries the same guide).
export const sdkDocsHtml = `<article class="prose"><h1>Game SDK</h1><p>Placeholder.</p></article>`;
