// A hand-written server (plain node:http) of state-change.yaml: one box, `bx-41q`, open at the
// start. POST /boxes/{boxId}/seal is refused with 400 until PATCH /boxes/{boxId} has closed the
// box, so that a contract tester must try the seal again after the change to reach it.
//
//   const server = await startStateServer();
//   // server.url is http://127.0.0.1:<port>/api
//   await server.close();
import { createServer } from 'node:http';

/** @returns {Promise<{ url: string, close(): Promise<void> }>} */
export async function startStateServer() {
  const boxes = new Map([['bx-41q', { id: 'bx-41q', state: 'open' }]]);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const send = (res, status, body) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  function handle(req, res, text) {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const method = req.method ?? 'GET';
    if (path === '/api/boxes' && method === 'GET') return send(res, 200, [...boxes.values()]);
    const match = /^\/api\/boxes\/([^/]+)(\/seal)?$/.exec(path);
    const box = match ? boxes.get(decodeURIComponent(match[1])) : undefined;
    if (!match || (method !== 'PATCH' && method !== 'POST')) return send(res, 405, { message: 'not allowed' });
    if (match[2] && method === 'POST') {
      if (!box) return send(res, 404, { message: 'no such box' });
      if (box.state !== 'closed') return send(res, 400, { message: 'close the box first' });
      return send(res, 201);
    }
    if (!match[2] && method === 'PATCH') {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 400, { message: 'send JSON' });
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, { message: 'not JSON' });
      }
      const keys = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : undefined;
      if (!keys || keys.length !== 1 || body.state !== 'closed') return send(res, 400, { message: 'state must be closed, alone' });
      if (!box) return send(res, 404, { message: 'no such box' });
      box.state = 'closed';
      return send(res, 200, box);
    }
    return send(res, 405, { message: 'not allowed' });
  }
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    url: `http://127.0.0.1:${port}/api`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
