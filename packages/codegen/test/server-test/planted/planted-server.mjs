// A hand-written server of inventory.yaml on plain node:http, standing for a server written in
// another language: nothing here comes from the generator. It runs correctly (strict: every
// request outside the contract is refused with the declared status) or with exactly one planted
// defect from DEFECTS, so that a contract tester can be shown to find each defect and to report
// nothing on the correct server.
//
//   const server = await startPlantedServer({ defect: 'wrong-type' });
//   // server.url is http://127.0.0.1:<port>/inventory/v1
//   await server.close();
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * @typedef {{ name: string, description: string }} Defect
 * @typedef {{ id: string, name: string, quantity: number, tags?: string[] }} Item
 * @typedef {{ url: string, origin: string, close(): Promise<void> }} PlantedServer
 */

/** The planted defects, in a fixed order. Each changes one behaviour; everything else stays correct. @type {readonly Defect[]} */
export const DEFECTS = Object.freeze([
  { name: 'missing-required-member', description: 'GET /items/{itemId}: the 200 body lacks the required member `quantity`.' },
  { name: 'wrong-type', description: 'GET /items/{itemId}: the 200 body has `quantity` as a string (e.g. "7") instead of an integer.' },
  { name: 'undeclared-status', description: 'GET /items/{itemId}: answers 203 (not declared) instead of 200, with the same body.' },
  { name: 'undeclared-content-type', description: 'GET /items/{itemId}: the 200 is sent as text/plain (the same JSON text) instead of application/json.' },
  { name: 'server-error-on-malformed', description: 'GET /items/{itemId}: an id not matching ^itm-[0-9]{3}$ gets 500 with a plain text body instead of 400.' },
  { name: 'invalid-body-accepted', description: 'POST /items: any JSON object is accepted (its members are not checked) and answered 201 with a valid Item built from defaults.' },
  { name: 'unenforced-security', description: 'Every operation: the bearer token is not checked; requests without or with a wrong Authorization are served.' },
  { name: 'missing-required-header', description: 'GET /items: the 200 lacks the required header X-Request-Id.' },
  { name: 'page-skipping-record', description: 'GET /items: page 2 (when page-size is below the total) leaves out the first record of that page; meta and other pages unchanged.' },
  { name: 'member-outside-closed-object', description: 'GET /items/{itemId}: the 200 body has a member `internalNote` that the closed Item schema does not allow.' },
]);

const BASE_PATH = '/inventory/v1';
const TOKEN = 'good-token';
const ID_PATTERN = /^itm-[0-9]{3}$/;
/** Canonical integer text of a query value: optional minus, digits only. */
const INTEGER_TEXT = /^-?[0-9]+$/;
const MAX_BODY_BYTES = 64 * 1024;
const SEEDED = 25;
const FIRST_CREATED = SEEDED + 1;
const LAST_ID = 999;

const NAMES = [
  'Anchor bolt', 'Bearing', 'Cable tie', 'Drill bit', 'End cap', 'Flat washer', 'Grommet', 'Hinge', 'Insulating tape', 'Jubilee clip',
  'Key blank', 'Lock nut', 'Machine screw', 'Nail plate', 'O-ring', 'Pipe clamp', 'Quick link', 'Rivet', 'Spring pin', 'Toggle bolt',
  'U-bolt', 'Valve seal', 'Wing nut', 'X-bracket', 'Y-connector',
];

/** @param {number} n @returns {string} */
const idOf = (n) => `itm-${String(n).padStart(3, '0')}`;

/** The 25 seeded items itm-001..itm-025, the same on every start. @returns {Item[]} */
function seededItems() {
  return NAMES.map((name, i) => {
    const n = i + 1;
    /** @type {Item} */
    const item = { id: idOf(n), name, quantity: (n * 7) % 11 };
    if (n % 5 === 0) item.tags = ['bulk', 'hardware'];
    else if (n % 3 === 1) item.tags = ['hardware'];
    return item;
  });
}

/** @param {string} message @param {string} code */
const error = (code, message) => ({ code, message });

/**
 * Starts the server on 127.0.0.1 and a free port.
 * @param {{ defect?: string }} [options] a name from DEFECTS, or nothing for the correct server
 * @returns {Promise<PlantedServer>}
 */
export async function startPlantedServer({ defect } = {}) {
  if (defect !== undefined && !DEFECTS.some((d) => d.name === defect)) {
    throw new Error(`unknown defect "${defect}" (known: ${DEFECTS.map((d) => d.name).join(', ')})`);
  }
  /** @param {string} name */
  const planted = (name) => defect === name;

  const list = seededItems();
  /** Every readable item by id: the seeded ones and those created since the start. @type {Map<string, Item>} */
  const store = new Map(list.map((item) => [item.id, item]));
  let nextId = FIRST_CREATED;

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) send(res, 500, error('internal', e instanceof Error ? e.message : String(e)));
      else res.destroy();
    });
  });

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function handle(req, res) {
    const target = req.url ?? '';
    const q = target.indexOf('?');
    const pathname = q < 0 ? target : target.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    const method = req.method ?? 'GET';

    // A body is only read by POST /items; drain it everywhere else.
    const isCreate = method === 'POST' && pathname === `${BASE_PATH}/items`;
    const body = isCreate ? await readBody(req) : (req.resume(), undefined);

    // Authorization first, before anything else.
    if (!planted('unenforced-security')) {
      const values = req.headersDistinct.authorization ?? [];
      if (values.length !== 1 || values[0] !== `Bearer ${TOKEN}`) {
        return send(res, 401, error('unauthorized', 'a valid bearer token is required'), { 'www-authenticate': 'Bearer' });
      }
    }

    if (pathname === `${BASE_PATH}/items`) {
      if (method === 'GET') return listItems(res, query);
      if (method === 'POST') return createItem(req, res, /** @type {{ bytes: Buffer, tooLarge: boolean }} */ (body));
      return send(res, 405, error('method_not_allowed', `${method} is not allowed here`), { allow: 'GET, POST' });
    }
    const prefix = `${BASE_PATH}/items/`;
    if (pathname.startsWith(prefix) && !pathname.slice(prefix.length).includes('/')) {
      if (method !== 'GET') return send(res, 405, error('method_not_allowed', `${method} is not allowed here`), { allow: 'GET' });
      return getItem(res, pathname.slice(prefix.length));
    }
    return send(res, 404, error('not_found', 'no such resource'));
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {URLSearchParams} query
   */
  function listItems(res, query) {
    const page = integerParam(query, 'page', 1, 1, Infinity);
    if (typeof page === 'string') return send(res, 400, error('bad_request', page));
    const size = integerParam(query, 'page-size', 10, 1, 100);
    if (typeof size === 'string') return send(res, 400, error('bad_request', size));
    const totalRecords = list.length;
    const totalPages = Math.ceil(totalRecords / size);
    const start = (page - 1) * size;
    let data = start < totalRecords ? list.slice(start, start + size) : [];
    if (planted('page-skipping-record') && page === 2 && size < totalRecords) data = data.slice(1);
    /** @type {Record<string, string>} */
    const headers = planted('missing-required-header') ? {} : { 'x-request-id': randomUUID() };
    return send(res, 200, { data, meta: { totalPages, totalRecords } }, headers);
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {string} raw the path segment, still percent-encoded
   */
  function getItem(res, raw) {
    let id;
    try {
      id = decodeURIComponent(raw);
    } catch {
      id = undefined; // malformed percent-encoding: a malformed id
    }
    if (id === undefined || !ID_PATTERN.test(id)) {
      if (planted('server-error-on-malformed')) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return void res.end('Internal Server Error');
      }
      return send(res, 400, error('bad_request', 'itemId must match ^itm-[0-9]{3}$'));
    }
    const item = store.get(id);
    if (!item) return send(res, 404, error('not_found', `no item ${id}`));

    /** @type {Record<string, unknown>} */
    const answer = { ...item };
    if (planted('missing-required-member')) delete answer.quantity;
    if (planted('wrong-type')) answer.quantity = String(item.quantity);
    if (planted('member-outside-closed-object')) answer.internalNote = 'restock after audit';
    if (planted('undeclared-content-type')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(JSON.stringify(answer));
    }
    return send(res, planted('undeclared-status') ? 203 : 200, answer);
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {{ bytes: Buffer, tooLarge: boolean }} body
   */
  function createItem(req, res, body) {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return send(res, 415, error('unsupported_media_type', 'the request body must be application/json'));
    if (body.tooLarge) return send(res, 413, error('payload_too_large', `the request body is larger than ${MAX_BODY_BYTES} bytes`));
    let value;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes));
    } catch {
      return send(res, 400, error('bad_request', 'the request body is not JSON'));
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return send(res, 400, error('bad_request', 'the request body must be a JSON object'));

    /** @type {Item} */
    let item;
    if (planted('invalid-body-accepted')) {
      // Members are not checked: each valid one is kept, anything else falls back to a default.
      item = { id: '', name: validName(value.name) ? value.name : 'Unnamed item', quantity: validQuantity(value.quantity) ? value.quantity : 0 };
      if (validTags(value.tags)) item.tags = [...value.tags];
    } else {
      const problem = newItemProblem(value);
      if (problem) return send(res, 400, error('bad_request', problem));
      item = { id: '', name: value.name, quantity: value.quantity };
      if (value.tags !== undefined) item.tags = [...value.tags];
    }
    item.id = idOf(nextId);
    nextId = nextId === LAST_ID ? FIRST_CREATED : nextId + 1;
    store.set(item.id, item);
    return send(res, 201, item);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    url: `${origin}${BASE_PATH}`,
    origin,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A declared integer query parameter: absent → the default; given once as canonical integer text
 * within the bounds → its value; anything else → the reason it is refused (a string).
 * @param {URLSearchParams} query
 * @param {string} name
 * @param {number} fallback
 * @param {number} min
 * @param {number} max
 * @returns {number | string}
 */
function integerParam(query, name, fallback, min, max) {
  const values = query.getAll(name);
  if (values.length === 0) return fallback;
  if (values.length > 1) return `${name} is given more than once`;
  const text = /** @type {string} */ (values[0]);
  if (!INTEGER_TEXT.test(text)) return `${name} must be an integer`;
  const n = Number(text);
  if (n < min || n > max) return `${name} must be between ${min} and ${max}`;
  return n;
}

/** @param {unknown} v @returns {v is string} */
const validName = (v) => typeof v === 'string' && [...v].length >= 1 && [...v].length <= 40;
/** @param {unknown} v @returns {v is number} */
const validQuantity = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
/** @param {unknown} v @returns {v is string[]} */
const validTags = (v) => Array.isArray(v) && v.length <= 5 && v.every((t) => typeof t === 'string');

/**
 * Why a parsed JSON object is not a NewItem, or undefined when it is one.
 * @param {Record<string, unknown>} value
 * @returns {string | undefined}
 */
function newItemProblem(value) {
  for (const key of Object.keys(value)) if (key !== 'name' && key !== 'quantity' && key !== 'tags') return `unknown member "${key}"`;
  if (!('name' in value)) return 'name is required';
  if (!validName(value.name)) return 'name must be a string of 1 to 40 characters';
  if (!('quantity' in value)) return 'quantity is required';
  if (!validQuantity(value.quantity)) return 'quantity must be an integer of 0 or more';
  if (value.tags !== undefined && !validTags(value.tags)) return 'tags must be an array of at most 5 strings';
  return undefined;
}

/**
 * Reads the request body, keeping at most MAX_BODY_BYTES (the rest is drained and dropped).
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<{ bytes: Buffer, tooLarge: boolean }>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks), tooLarge }));
    req.on('error', reject);
  });
}

/**
 * Sends a JSON answer.
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function send(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
