// Hand-written servers (plain node:http) of the four files of this folder, one per way an API
// names and creates its items: ids under another spelling than the path parameter
// (named-differently), a list that starts empty and fills by POST (fill-by-post), ids only in a
// Location header (location-only), ids in an `id` member (id-member). Each runs correctly or
// with one defect planted in its item answer (GET of one item), so that a contract tester can
// be shown to reach the item operation without being told an id, and to find the defect there.
//
//   const server = await startReachServer('location-only', { defect: 'bad-date-time' });
//   // server.url is http://127.0.0.1:<port>/api
//   await server.close();
import { createServer } from 'node:http';

/** @typedef {'named-differently' | 'fill-by-post' | 'location-only' | 'id-member'} StyleName */
/** @typedef {'missing-member' | 'extra-member' | 'bad-date-time' | 'wrong-content-type' | 'no-credential-check'} DefectName */

export const STYLES = /** @type {const} */ (['named-differently', 'fill-by-post', 'location-only', 'id-member']);

/** The defects, each in the item answer only. */
export const DEFECTS = /** @type {const} */ ([
  'missing-member', // a required member left out
  'extra-member', // a member the closed schema does not allow
  'bad-date-time', // a date-time member in another format
  'wrong-content-type', // the JSON sent as text/plain
  'no-credential-check', // the item answered without a valid bearer token
]);

const BASE = '/api';
const TOKEN = 'good-token';
const WHEN = '2026-03-01T09:30:00Z';

/**
 * Per style: the collection path, the seeded records, how a record is shown, and what the list
 * and the creation answer. Ids are opaque (not what a generator of strings would make up).
 */
const STYLE_TABLE = {
  'named-differently': {
    collection: '/accounts',
    seed: ['Q7-acc-3f9', 'Q7-acc-8k2', 'Q7-acc-1m5'].map((id, i) => ({ id, name: `Account ${i + 1}` })),
    show: (r) => ({ AccountId: r.id, Nickname: r.name, OpenedAt: WHEN }),
    names: { member: 'Nickname', date: 'OpenedAt' },
    list: (shown) => ({ Data: { Account: shown } }),
  },
  'fill-by-post': {
    collection: '/notes',
    seed: [],
    show: (r) => ({ note_id: r.id, text: r.name, createdAt: WHEN }),
    names: { member: 'text', date: 'createdAt' },
    list: (shown) => ({ items: shown }),
    create: { fields: { text: 'string' }, name: (body) => body.text, answer: (r, shown) => ({ status: 201, headers: {}, body: shown }) },
    deletable: true,
  },
  'location-only': {
    collection: '/orders',
    seed: [],
    show: (r) => ({ product: r.name, quantity: r.quantity, placedAt: WHEN }),
    names: { member: 'quantity', date: 'placedAt' },
    create: {
      fields: { product: 'string', quantity: 'positive-integer' },
      name: (body) => body.product,
      answer: (r) => ({ status: 201, headers: { location: `${BASE}/orders/${encodeURIComponent(r.id)}` }, body: undefined }),
    },
  },
  'id-member': {
    collection: '/widgets',
    seed: ['w:91x', 'w:27b', 'w:55c'].map((id, i) => ({ id, name: `Widget ${i + 1}` })),
    show: (r) => ({ id: r.id, label: r.name, updatedAt: WHEN }),
    names: { member: 'label', date: 'updatedAt' },
    list: (shown) => shown,
  },
};

/**
 * @param {StyleName} style
 * @param {{ defect?: DefectName, refuseCreation?: boolean }} [options] `refuseCreation`: every
 *   POST is answered 400, valid or not (a server that refuses what its file accepts)
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startReachServer(style, { defect, refuseCreation = false } = {}) {
  const table = STYLE_TABLE[style];
  if (!table) throw new Error(`unknown style ${style}`);
  if (defect !== undefined && !DEFECTS.includes(defect)) throw new Error(`unknown defect ${defect}`);
  const store = new Map(table.seed.map((r) => [r.id, { ...r }]));
  let made = 0;

  const server = createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= 64 * 1024) chunks.push(chunk);
    });
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });

  /** @param {import('node:http').ServerResponse} res */
  function send(res, status, body, headers = {}, contentType = 'application/json') {
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': contentType }), ...headers });
    res.end(text);
  }
  const fail = (res, status, message) => send(res, status, { message });

  function handle(req, res, text) {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const collection = `${BASE}${table.collection}`;
    const itemId = url.pathname.startsWith(`${collection}/`) ? decodeURIComponent(url.pathname.slice(collection.length + 1)) : undefined;
    if (url.pathname !== collection && (itemId === undefined || itemId === '' || itemId.includes('/'))) return fail(res, 404, 'no such path');
    const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
    const skipAuth = defect === 'no-credential-check' && itemId !== undefined && method === 'GET';
    if (!authorized && !skipAuth) return fail(res, 401, 'a valid bearer token is required');

    if (itemId === undefined) {
      if (method === 'GET' && table.list) return send(res, 200, table.list([...store.values()].map(table.show)));
      if (method === 'POST' && table.create) return create(req, res, text);
      return fail(res, 405, `${method} is not allowed here`);
    }
    const record = store.get(itemId);
    if (method === 'GET') {
      if (!record) return fail(res, 404, `no item ${itemId}`);
      const shown = table.show(record);
      if (defect === 'missing-member') delete shown[table.names.member];
      if (defect === 'extra-member') shown.internalNote = 'kept for audit';
      if (defect === 'bad-date-time') shown[table.names.date] = '01/03/2026 09:30';
      return send(res, 200, shown, {}, defect === 'wrong-content-type' ? 'text/plain' : 'application/json');
    }
    if (method === 'DELETE' && table.deletable) {
      if (!record) return fail(res, 404, `no item ${itemId}`);
      store.delete(itemId);
      res.writeHead(204).end();
      return;
    }
    return fail(res, 405, `${method} is not allowed here`);
  }

  function create(req, res, text) {
    if (refuseCreation) return fail(res, 400, 'not today');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return fail(res, 415, 'send application/json');
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(res, 400, 'the body is not JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(res, 400, 'the body is not an object');
    const fields = table.create.fields;
    for (const key of Object.keys(body)) if (!(key in fields)) return fail(res, 400, `unknown member ${key}`);
    for (const [key, kind] of Object.entries(fields)) {
      const value = body[key];
      const ok = kind === 'string' ? typeof value === 'string' : Number.isInteger(value) && value >= 1;
      if (!ok) return fail(res, 400, `${key} is missing or not a ${kind}`);
    }
    made++;
    const record = { id: `${table.collection.slice(1, 4)}~${(made * 7919).toString(36)}`, name: table.create.name(body), quantity: body.quantity };
    store.set(record.id, record);
    const answer = table.create.answer(record, table.show(record));
    return send(res, answer.status, answer.body, answer.headers);
  }

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
