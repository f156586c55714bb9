// POST /v1/me/avatar with malformed multipart bodies: every one is a 4xx in the envelope, and an upload announced
// larger than 2 MB is refused on its Content-Length before it is read.
import { once } from 'node:events';
import net from 'node:net';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { closeOf } from '../helpers/live.js';
import { multipartBody } from '../helpers/multipart.js';

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff8800' } })
    .png()
    .toBuffer();
});

eachDialect('accounts: malformed avatar uploads', (h) => {
  const upload = async (body: Buffer | string, contentType: string) => {
    const { token } = await createPlayerWithToken(h.ctx);
    return h.http.post('/v1/me/avatar', { token, body, contentType });
  };
  const expect4xx = (
    res: { status: number; body: any; headers: Record<string, unknown> },
    status: number,
    code: string,
  ) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ ok: false, error: { code } });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  };

  it('answers multipart/form-data without a boundary with 400 bad_request', async () => {
    const { body } = multipartBody([{ field: 'avatar', filename: 'a.png', contentType: 'image/png', data: png }]);
    expect4xx(await upload(body, 'multipart/form-data'), 400, 'bad_request');
    const empty = await upload(body, 'multipart/form-data; boundary=');
    expect([400, 422]).toContain(empty.status);
    expect(empty.body.ok).toBe(false);
  });

  it('answers a body without its closing boundary with 400 bad_request', async () => {
    const { body, contentType } = multipartBody([
      { field: 'avatar', filename: 'a.png', contentType: 'image/png', data: png },
    ]);
    const cut = body.subarray(0, body.length - 40);
    expect4xx(await upload(cut, contentType), 400, 'bad_request');
    const noEnd = body.subarray(0, body.lastIndexOf('--') - 2);
    expect4xx(await upload(noEnd, contentType), 400, 'bad_request');
  });

  it('answers garbage after a valid boundary header with a 4xx', async () => {
    const res = await upload('--x\r\nnot a header line\r\n\r\n', 'multipart/form-data; boundary=x');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.ok).toBe(false);
  });

  it('refuses an upload announced larger than 2 MB on its Content-Length, before reading the body', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as net.AddressInfo).port;
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    const closed = closeOf(socket);
    // 100 MB announced, 1 KB sent: the answer must come without the rest
    socket.write(
      `POST /v1/me/avatar HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n--x\r\n` +
        'Content-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n' +
        'a'.repeat(1024),
    );
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
  });
});
