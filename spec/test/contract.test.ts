// Contract tests: bundle the OpenAPI files the same way the tooling does and check
// the rules of the service specification against the bundled result.
import { beforeAll, describe, expect, it } from 'vitest';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, loadConfig } from '@redocly/openapi-core';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const specDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const configPath = resolve(specDir, '..', 'redocly.yaml');

async function load(root: string): Promise<Json> {
  const config = await loadConfig({ configPath });
  const result = await bundle({ ref: resolve(specDir, root), config, dereference: false });
  const errors = result.problems.filter((p) => p.severity === 'error');
  expect(errors.map((p) => p.message)).toEqual([]);
  return result.bundle.parsed;
}

/** Follows local `$ref`s (after bundling every reference is local). */
function deref(doc: Json, node: Json): Json {
  let current = node;
  const seen = new Set<string>();
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`non-local $ref after bundling: ${ref}`);
    if (seen.has(ref)) throw new Error(`$ref cycle at ${ref}`);
    seen.add(ref);
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((acc: Json, key: string) => acc?.[key], doc);
    if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return current;
}

function refName(node: Json): string | undefined {
  return typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : undefined;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Op = { method: string; path: string; op: Json };
function operations(doc: Json): Op[] {
  const out: Op[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Expected operations (section 4.2 / 4.3) and their status codes (section 7)
// ---------------------------------------------------------------------------
const ERR_BASE = ['400', '401', '403', '405', '406', '429', '500'];
const JSON3 = ['application/json', 'application/json; charset=utf-8', 'application/jwt'];
const TPP = 'TPPOAuth2Security';
const USER = 'UserOAuth2Security';

type Expected = {
  method: string;
  path: string;
  operationId: string;
  tag: string;
  scheme: string;
  scopes: string[];
  success: string;
  successTypes: string[];
  with404?: boolean;
  with415?: boolean;
};

const CONSENT_OPS: Expected[] = [
  { method: 'get', path: '/account-access-consents', operationId: 'GetAccountAccessConsentsByBaseConsentId', tag: 'Bank Data Sharing Consent', scheme: TPP, scopes: ['openid', 'accounts'], success: '200', successTypes: JSON3, with404: true, with415: true },
  { method: 'get', path: '/account-access-consents/{ConsentId}', operationId: 'GetAccountAccessConsentsConsentId', tag: 'Bank Data Sharing Consent', scheme: TPP, scopes: ['openid', 'accounts'], success: '200', successTypes: JSON3 },
  { method: 'patch', path: '/account-access-consents/{ConsentId}', operationId: 'PatchAccountAccessConsentsConsentId', tag: 'Bank Data Sharing Consent', scheme: TPP, scopes: ['openid', 'accounts'], success: '204', successTypes: [], with415: true },
];
const ATTESTATION_OPS: Expected[] = [
  { method: 'get', path: '/account-access-consents/{ConsentId}/attestations', operationId: 'ReadAccountAccessConsentAttestations', tag: 'Bank Data Sharing Consent', scheme: TPP, scopes: ['accounts'], success: '200', successTypes: ['application/json', 'application/json; charset=utf-8'], with404: true, with415: true },
  { method: 'post', path: '/account-access-consents/{ConsentId}/attestations', operationId: 'CreateAccountAccessConsentAttestation', tag: 'Bank Data Sharing Consent', scheme: TPP, scopes: ['accounts'], success: '201', successTypes: ['application/jwt'], with404: true, with415: true },
];
const data = (path: string, operationId: string, tag: string, with404 = false): Expected => ({
  method: 'get', path, operationId, tag, scheme: USER, scopes: ['openid', 'accounts'], success: '200', successTypes: JSON3, with404,
});
const DATA_OPS: Expected[] = [
  data('/accounts', 'GetAccounts', 'Accounts'),
  data('/accounts/{AccountId}', 'GetAccountsAccountId', 'Accounts'),
  data('/accounts/{AccountId}/balances', 'GetAccountsAccountIdBalances', 'Balances'),
  data('/accounts/{AccountId}/beneficiaries', 'GetAccountsAccountIdBeneficiaries', 'Beneficiaries'),
  data('/accounts/{AccountId}/direct-debits', 'GetAccountsAccountIdDirectDebits', 'Direct Debits', true),
  data('/accounts/{AccountId}/product', 'GetAccountsAccountIdProduct', 'Product', true),
  data('/accounts/{AccountId}/scheduled-payments', 'GetScheduledPayments', 'Scheduled Payments', true),
  data('/accounts/{AccountId}/standing-orders', 'GetAccountsAccountIdStandingOrders', 'Standing Orders', true),
  data('/accounts/{AccountId}/transactions', 'GetAccountsAccountIdTransactions', 'Transactions'),
  data('/accounts/{AccountId}/parties', 'PartiesByAccountId_read', 'Parties'),
  data('/parties', 'Parties_read', 'Parties'),
  data('/accounts/{AccountId}/statements', 'GetAccountAccountIdStatements', 'Statements'),
];

const EXPECTED: Record<string, Expected[]> = {
  'v2.2': [...CONSENT_OPS, ...ATTESTATION_OPS, ...DATA_OPS],
  'v2.1': [...CONSENT_OPS, ...DATA_OPS],
};

const expectedStatuses = (e: Expected) =>
  [e.success, ...ERR_BASE, ...(e.with404 ? ['404'] : []), ...(e.with415 ? ['415'] : [])].sort();

const COMMON_HEADERS = ['x-customer-user-agent', 'x-fapi-auth-date', 'x-fapi-customer-ip-address', 'x-fapi-interaction-id'];

const QUERY_PARAMS: Record<string, Record<string, { type: string; format?: string; required: boolean }>> = {
  GetAccountAccessConsentsByBaseConsentId: { baseConsentId: { type: 'string', required: true } },
  ReadAccountAccessConsentAttestations: { LastSubmitted: { type: 'boolean', required: false } },
  GetAccountsAccountIdTransactions: {
    fromBookingDateTime: { type: 'string', format: 'date-time', required: false },
    toBookingDateTime: { type: 'string', format: 'date-time', required: false },
  },
  GetAccountAccountIdStatements: {
    fromStatementDate: { type: 'string', format: 'date', required: false },
    toStatementDate: { type: 'string', format: 'date', required: false },
  },
};

function params(doc: Json, op: Json): Json[] {
  return (op.parameters ?? []).map((p: Json) => deref(doc, p));
}

for (const version of ['v2.2', 'v2.1'] as const) {
  describe(`account-information ${version}`, () => {
    let doc: Json;
    let ops: Op[];
    const expected = EXPECTED[version]!;
    const byId = (id: string) => {
      const found = ops.find((o) => o.op.operationId === id);
      if (!found) throw new Error(`operation ${id} not found`);
      return found;
    };

    beforeAll(async () => {
      doc = await load(`${version}/account-information.yaml`);
      ops = operations(doc);
    });

    it('declares the version, OpenAPI 3.0.3 and the default prefix', () => {
      expect(doc.openapi).toBe('3.0.3');
      expect(doc.info.version).toBe(version);
      expect(doc.servers).toEqual([expect.objectContaining({ url: `/open-finance/account-information/${version}` })]);
    });

    it(`has exactly the ${expected.length} operations of section 4`, () => {
      const actual = ops.map((o) => `${o.method.toUpperCase()} ${o.path} ${o.op.operationId}`).sort();
      const wanted = expected.map((e) => `${e.method.toUpperCase()} ${e.path} ${e.operationId}`).sort();
      expect(actual).toStrictEqual(wanted);
      expect(actual).toHaveLength(version === 'v2.2' ? 17 : 15);
    });

    it('gives every operation a summary, a description and one declared tag', () => {
      const declared = doc.tags.map((t: Json) => t.name);
      for (const e of expected) {
        const { op } = byId(e.operationId);
        expect(op.summary, e.operationId).toBeTruthy();
        expect(op.description, e.operationId).toBeTruthy();
        expect(op.tags, e.operationId).toStrictEqual([e.tag]);
        expect(declared).toContain(e.tag);
      }
    });

    it('uses the security scheme and scopes of section 5 on each operation', () => {
      for (const e of expected) {
        const { op } = byId(e.operationId);
        expect(op.security, e.operationId).toStrictEqual([{ [e.scheme]: e.scopes }]);
      }
      const schemes = doc.components.securitySchemes;
      for (const name of [TPP, USER]) {
        const scheme = deref(doc, schemes[name]);
        expect(scheme.type).toBe('oauth2');
        const flows = Object.values(scheme.flows) as Json[];
        expect(flows).toHaveLength(1);
        expect(Object.keys(flows[0].scopes).sort()).toStrictEqual(['accounts', 'openid']);
      }
      expect(Object.keys(deref(doc, schemes[TPP]).flows)).toStrictEqual(['clientCredentials']);
      expect(Object.keys(deref(doc, schemes[USER]).flows)).toStrictEqual(['authorizationCode']);
    });

    it('declares exactly the status codes of section 7 per operation', () => {
      for (const e of expected) {
        const { op } = byId(e.operationId);
        expect(Object.keys(op.responses).sort(), e.operationId).toStrictEqual(expectedStatuses(e));
      }
    });

    it('declares 404 only where rule 2 says and 415 only where rule 3 says', () => {
      const with404 = ops.filter((o) => '404' in o.op.responses).map((o) => o.op.operationId).sort();
      const with415 = ops.filter((o) => '415' in o.op.responses).map((o) => o.op.operationId).sort();
      const want404 = [
        'GetAccountAccessConsentsByBaseConsentId',
        'GetAccountsAccountIdDirectDebits',
        'GetAccountsAccountIdProduct',
        'GetScheduledPayments',
        'GetAccountsAccountIdStandingOrders',
        ...(version === 'v2.2' ? ['ReadAccountAccessConsentAttestations', 'CreateAccountAccessConsentAttestation'] : []),
      ].sort();
      const want415 = [
        'PatchAccountAccessConsentsConsentId',
        'GetAccountAccessConsentsByBaseConsentId',
        ...(version === 'v2.2' ? ['ReadAccountAccessConsentAttestations', 'CreateAccountAccessConsentAttestation'] : []),
      ].sort();
      expect(with404).toStrictEqual(want404);
      expect(with415).toStrictEqual(want415);
    });

    it('answers success in the media types of section 4', () => {
      for (const e of expected) {
        const { op } = byId(e.operationId);
        const ok = deref(doc, op.responses[e.success]);
        expect(Object.keys(ok.content ?? {}).sort(), e.operationId).toStrictEqual([...e.successTypes].sort());
      }
    });

    it('puts x-fapi-interaction-id on every response of every operation', () => {
      for (const { op } of ops) {
        for (const [status, raw] of Object.entries(op.responses)) {
          const res = deref(doc, raw);
          const header = deref(doc, res.headers?.['x-fapi-interaction-id']);
          expect(header, `${op.operationId} ${status}`).toBeTruthy();
          expect(deref(doc, header.schema).type).toBe('string');
        }
      }
    });

    it('gives 400/403/500 an Errors body (JSON and signed) and no body to the other errors', () => {
      for (const { op } of ops) {
        for (const [status, raw] of Object.entries(op.responses)) {
          const res = deref(doc, raw);
          if (['400', '403', '500'].includes(status)) {
            expect(Object.keys(res.content).sort(), `${op.operationId} ${status}`).toStrictEqual([...JSON3].sort());
            expect(refName(res.content['application/json'].schema)).toBe(`Errors${status}`);
            expect(refName(res.content['application/json; charset=utf-8'].schema)).toBe(`Errors${status}`);
            expect(refName(res.content['application/jwt'].schema)).toBe(`Errors${status}Signed`);
          } else if (['401', '404', '405', '406', '415', '429'].includes(status)) {
            expect(res.content, `${op.operationId} ${status}`).toBeUndefined();
          }
        }
      }
    });

    it('sends Retry-After (integer seconds) with every 429', () => {
      for (const { op } of ops) {
        const res = deref(doc, op.responses['429']);
        const header = deref(doc, res.headers['Retry-After']);
        expect(header.required).toBe(true);
        expect(deref(doc, header.schema).type).toBe('integer');
      }
    });

    it('accepts the common headers of 4.1 on every operation', () => {
      for (const { op } of ops) {
        const headers = params(doc, op).filter((p) => p.in === 'header');
        expect(headers.map((p) => p.name).sort(), op.operationId).toStrictEqual(COMMON_HEADERS);
        for (const h of headers) expect(h.required, `${op.operationId} ${h.name}`).toBe(false);
        const interaction = headers.find((h) => h.name === 'x-fapi-interaction-id');
        expect(deref(doc, interaction.schema)).toMatchObject({ type: 'string', format: 'uuid' });
      }
    });

    it('has the query parameters of 4.4 and nothing else (no paging on TPP requests)', () => {
      for (const { op } of ops) {
        const query = params(doc, op).filter((p) => p.in === 'query');
        const want = QUERY_PARAMS[op.operationId] ?? {};
        expect(query.map((p) => p.name).sort(), op.operationId).toStrictEqual(Object.keys(want).sort());
        for (const p of query) {
          const w = want[p.name]!;
          const schema = deref(doc, p.schema);
          expect(schema.type, p.name).toBe(w.type);
          expect(schema.format, p.name).toBe(w.format);
          expect(Boolean(p.required), p.name).toBe(w.required);
        }
      }
    });

    it('declares the path parameters of each path', () => {
      for (const { path, op } of ops) {
        const names = params(doc, op).filter((p) => p.in === 'path').map((p) => p.name).sort();
        const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        expect(names, op.operationId).toStrictEqual(inPath);
      }
    });

    it('takes the PATCH body as JSON or JWT and answers 204 without a body', () => {
      const { op } = byId('PatchAccountAccessConsentsConsentId');
      expect(Object.keys(op.requestBody.content).sort()).toStrictEqual([...JSON3].sort());
      expect(refName(op.requestBody.content['application/json'].schema)).toBe('ConsentPatch');
      expect(refName(op.requestBody.content['application/jwt'].schema)).toBe('ConsentPatchSigned');
      expect(deref(doc, op.responses['204']).content).toBeUndefined();
    });

    it('closes Links, Meta, the webhook object and the Errors envelopes', () => {
      const s = doc.components.schemas;
      expect(s.Links).toMatchObject({ required: ['Self'], additionalProperties: false });
      expect(Object.keys(s.Links.properties).sort()).toStrictEqual(['First', 'Last', 'Next', 'Prev', 'Self']);
      for (const k of Object.keys(s.Links.properties)) expect(s.Links.properties[k]).toMatchObject({ type: 'string', format: 'uri' });
      expect(s.Meta).toMatchObject({ required: ['TotalPages'], additionalProperties: false });
      expect(s.Meta.properties.TotalPages).toMatchObject({ type: 'integer', format: 'int32', minimum: 0 });
      expect(Object.keys(s.Meta.properties).sort()).toStrictEqual(['FirstAvailableDateTime', 'LastAvailableDateTime', 'TotalPages']);
      expect(s.WebhookSubscription).toMatchObject({ required: ['Webhook'], additionalProperties: false });
      expect(s.WebhookSubscription.properties.Webhook.additionalProperties).toBe(false);
      expect(Object.keys(s.WebhookSubscription.properties.Webhook.properties).sort()).toStrictEqual(['IsActive', 'Url']);
      for (const status of ['400', '403', '500']) {
        const envelope = s[`Errors${status}`];
        expect(envelope).toMatchObject({ required: ['Errors'], additionalProperties: false });
        expect(Object.keys(envelope.properties)).toStrictEqual(['Errors']);
        expect(envelope.properties.Errors).toMatchObject({ type: 'array', minItems: 1 });
        const error = deref(doc, envelope.properties.Errors.items);
        expect(error).toMatchObject({ required: ['Code', 'Message'], additionalProperties: false });
        expect(Object.keys(error.properties).sort()).toStrictEqual(['Code', 'Message', 'Path', 'Url']);
        expect(deref(doc, error.properties.Message)).toMatchObject({ minLength: 1, maxLength: 500 });
        expect(deref(doc, error.properties.Path)).toMatchObject({ minLength: 1, maxLength: 500 });
      }
    });

    it('lets each error status use its prescribed codes or a namespaced code', () => {
      const s = doc.components.schemas;
      const codes: Record<string, string[]> = {
        '400': ['Consent.Invalid', 'Consent.BusinessRuleViolation', 'Consent.FailsControlParameters', 'Consent.InvalidUserIdentifier', 'JWS.InvalidSignature', 'JWS.Malformed', 'JWS.InvalidClaim', 'JWS.InvalidHeader', 'JWE.DecryptionError', 'JWE.InvalidHeader', 'GenericRecoverableError', 'GenericError', 'Event.UnexpectedEvent', 'Body.InvalidFormat', 'Resource.InvalidFormat'],
        '403': ['AccessToken.InvalidScope', 'Consent.TransientAccountAccessFailure', 'Consent.AccountTemporarilyBlocked', 'Consent.PermanentAccountAccessFailure', 'GenericRecoverableError', 'GenericError'],
        '500': ['GenericRecoverableError', 'GenericError'],
      };
      for (const [status, list] of Object.entries(codes)) {
        const code = s[`Error${status}Code`];
        expect(code.oneOf).toBeUndefined();
        expect(code.anyOf).toHaveLength(2);
        expect([...code.anyOf[0].enum].sort()).toStrictEqual([...list].sort());
        expect(deref(doc, code.anyOf[1]).pattern).toBe('^[A-Za-z]+\\.[A-Za-z0-9]+$');
      }
    });

    it('shapes every signed form as JWT claims plus `message` and nothing else', () => {
      const s = doc.components.schemas;
      const signed = Object.keys(s).filter((k) => k.endsWith('Signed'));
      expect(signed.length).toBeGreaterThan(10);
      for (const name of signed) {
        const schema = s[name];
        expect(schema.allOf, name).toHaveLength(2);
        expect(refName(schema.allOf[0]), name).toBe('JwtClaims');
        const tail = schema.allOf[1];
        expect(tail.required, name).toStrictEqual(['message']);
        expect(tail.additionalProperties, name).toBe(false);
        expect(Object.keys(tail.properties).sort(), name).toStrictEqual(['aud', 'exp', 'iat', 'iss', 'message', 'nbf']);
      }
      expect(s.JwtClaims.required).toStrictEqual(['iss', 'exp', 'nbf']);
      expect(s.ConsentListSigned.allOf[1].properties.message.type).toBe('array');
    });

    it('wraps data in {Data, Links, Meta}; transactions carry AccountId and Transaction', () => {
      const s = doc.components.schemas;
      for (const name of ['AccountsResponse', 'AccountResponse', 'BalancesResponse', 'BeneficiariesResponse', 'DirectDebitsResponse', 'ProductResponse', 'ScheduledPaymentsResponse', 'StandingOrdersResponse', 'TransactionsResponse', 'AccountPartiesResponse', 'PartyResponse', 'StatementsResponse']) {
        expect(s[name], name).toMatchObject({ required: ['Data', 'Links', 'Meta'], additionalProperties: false });
        expect(refName(s[name].properties.Links)).toBe('Links');
        expect(refName(s[name].properties.Meta)).toBe('Meta');
      }
      const tx = s.TransactionsResponse.properties.Data;
      expect(tx.required).toStrictEqual(['AccountId', 'Transaction']);
      expect(tx.properties.Transaction.type).toBe('array');
      expect(refName(tx.properties.Transaction.items)).toBe('Transaction');
      expect(s.StatementsResponse.properties.Data.required).toStrictEqual(['AccountId', 'AccountSubType', 'Statements']);
    });

    it('applies the field types and limits of sections 2.4 and 8', () => {
      const s = doc.components.schemas;
      expect(s.DateTime).toMatchObject({
        type: 'string',
        format: 'date-time',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|\\+\\d{2}:\\d{2}|-(?:0[1-9]|1[0-2]):\\d{2})$',
      });
      const dt = new RegExp(s.DateTime.pattern);
      expect(dt.test('2025-03-14T09:30:00Z')).toBe(true);
      expect(dt.test('2025-03-14T09:30:00.123456+04:00')).toBe(true);
      expect(dt.test('2025-03-14T09:30:00-05:00')).toBe(true);
      expect(dt.test('2025-03-14T09:30:00-00:00')).toBe(false);
      expect(dt.test('2025-03-14T09:30:00')).toBe(false);
      expect(s.LocalTimeZone.pattern).toBe('^UTC[+-]([01]\\d|2[0-4])(:?[0-5]\\d)?$');
      expect(s.Flags.enum).toStrictEqual(['Cashback', 'Payroll', 'DirectDebit', 'StandingOrder', 'Finance', 'Dividend', 'OpenFinance']);
      expect(s.PaymentMode.enum).toStrictEqual(['Online', 'Offline', 'Batch']);
      expect(s.TransactionType.enum).toStrictEqual(['POS', 'ECommerce', 'ATM', 'BillPayments', 'LocalBankTransfer', 'SameBankTransfer', 'InternationalTransfer', 'Teller', 'Cheque', 'Other']);
      expect(s.StandingOrderType.enum).toStrictEqual(['BetweenMyAccounts', 'SameBankTransfer', 'LocalBankTransfer', 'InternationalTransfer', 'Charity']);
      expect(s.StatementReference).toMatchObject({ type: 'string', minLength: 1, maxLength: 35 });
      expect(s.Frequency).toMatchObject({ type: 'string', minLength: 1, maxLength: 35 });
      expect(s.StandingOrderId).toMatchObject({ type: 'string', minLength: 1, maxLength: 40 });
      const tx = s.TransactionBase.properties;
      for (const field of ['TransactionDateTime', 'LocalTimeZone', 'TransactionType', 'SubTransactionType', 'Flags', 'PaymentModes', 'StatementReference']) {
        expect(tx[field], field).toBeDefined();
      }
    });

    it('shows the v2.1/v2.2 record differences', () => {
      const s = doc.components.schemas;
      const txRequired = s.Transaction.allOf.flatMap((part: Json) => deref(doc, part).required ?? []);
      expect(txRequired.includes('TransactionInformation')).toBe(version === 'v2.2');
      const productFields = Object.keys(s.Product.properties);
      expect(productFields.includes('TakafulRequired')).toBe(version === 'v2.2');
      expect(productFields.includes('TakafulDescription')).toBe(version === 'v2.2');
      const attestationSchemas = Object.keys(s).filter((k) => k.startsWith('Attestation'));
      if (version === 'v2.1') expect(attestationSchemas).toStrictEqual([]);
      else expect(attestationSchemas.length).toBeGreaterThan(0);
    });

    if (version === 'v2.2') {
      it('takes a required signed attestation and answers with a signed event', () => {
        const { op: create } = byId('CreateAccountAccessConsentAttestation');
        expect(create.requestBody.required).toBe(true);
        expect(Object.keys(create.requestBody.content)).toStrictEqual(['application/jwt']);
        expect(refName(create.requestBody.content['application/jwt'].schema)).toBe('AttestationRequestSigned');
        expect(refName(create.responses['201'].content['application/jwt'].schema)).toBe('AttestationResponseSigned');
        const { op: read } = byId('ReadAccountAccessConsentAttestations');
        expect(refName(read.responses['200'].content['application/json'].schema)).toBe('AttestationsResponse');
      });
    }
  });
}

// ---------------------------------------------------------------------------
// Hub-to-LFI paging contract (section 4.7)
// ---------------------------------------------------------------------------
const LFI_OPS: Array<[string, string, boolean]> = [
  ['/accounts', 'LfiGetAccounts', true],
  ['/accounts/{AccountId}', 'LfiGetAccountsAccountId', false],
  ['/accounts/{AccountId}/balances', 'LfiGetAccountsAccountIdBalances', true],
  ['/accounts/{AccountId}/beneficiaries', 'LfiGetAccountsAccountIdBeneficiaries', true],
  ['/accounts/{AccountId}/direct-debits', 'LfiGetAccountsAccountIdDirectDebits', true],
  ['/accounts/{AccountId}/product', 'LfiGetAccountsAccountIdProduct', true],
  ['/accounts/{AccountId}/scheduled-payments', 'LfiGetScheduledPayments', true],
  ['/accounts/{AccountId}/standing-orders', 'LfiGetAccountsAccountIdStandingOrders', true],
  ['/accounts/{AccountId}/transactions', 'LfiGetAccountsAccountIdTransactions', true],
  ['/accounts/{AccountId}/parties', 'LfiPartiesByAccountId_read', true],
  ['/parties', 'LfiParties_read', true],
  ['/accounts/{AccountId}/statements', 'LfiGetAccountAccountIdStatements', true],
];

for (const version of ['v2.2', 'v2.1'] as const) {
  describe(`lfi-paging ${version}`, () => {
    let doc: Json;
    let ops: Op[];
    beforeAll(async () => {
      doc = await load(`${version}/lfi-paging.yaml`);
      ops = operations(doc);
    });

    it('has one GET per data path with Lfi-prefixed operationIds', () => {
      expect(doc.servers).toEqual([expect.objectContaining({ url: `/lfi/${version}` })]);
      const actual = ops.map((o) => `${o.method} ${o.path} ${o.op.operationId}`).sort();
      expect(actual).toStrictEqual(LFI_OPS.map(([p, id]) => `get ${p} ${id}`).sort());
    });

    it('pages with page / page-size and answers {data, meta}', () => {
      for (const [path, id, paged] of LFI_OPS) {
        const { op } = ops.find((o) => o.path === path)!;
        expect(op.operationId).toBe(id);
        const query = params(doc, op).filter((p) => p.in === 'query');
        const page = query.find((p) => p.name === 'page');
        const size = query.find((p) => p.name === 'page-size');
        const body = deref(doc, deref(doc, op.responses['200']).content['application/json'].schema);
        if (!paged) {
          expect(page, id).toBeUndefined();
          expect(size, id).toBeUndefined();
          expect(body.required, id).toStrictEqual(['data']);
          continue;
        }
        expect(deref(doc, page.schema)).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
        expect(deref(doc, size.schema)).toMatchObject({ type: 'integer', minimum: 1, default: 100 });
        expect(body.required, id).toStrictEqual(['data', 'meta']);
        expect(body.properties.data.type, id).toBe('array');
        const meta = deref(doc, body.properties.meta);
        expect(meta.additionalProperties).toBe(false);
        expect(meta.required).toStrictEqual(['totalPages', 'totalRecords']);
        expect(meta.properties.paginated.type).toBe('boolean');
        expect(meta.properties.totalPages).toMatchObject({ type: 'integer', minimum: 0 });
        expect(meta.properties.totalRecords).toMatchObject({ type: 'integer', minimum: 0 });
      }
    });

    it('passes the TPP filters through', () => {
      const names = (id: string) =>
        params(doc, ops.find((o) => o.op.operationId === id)!.op)
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort();
      expect(names('LfiGetAccountsAccountIdTransactions')).toStrictEqual(['fromBookingDateTime', 'page', 'page-size', 'toBookingDateTime']);
      expect(names('LfiGetAccountAccountIdStatements')).toStrictEqual(['fromStatementDate', 'page', 'page-size', 'toStatementDate']);
    });
  });
}

// ---------------------------------------------------------------------------
// Directory (section 4.8)
// ---------------------------------------------------------------------------
describe('directory', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = await load('directory/directory.yaml');
  });

  it('has the three operations of section 4.8', () => {
    const actual = operations(doc).map((o) => `${o.method} ${o.path} ${o.op.operationId}`).sort();
    expect(actual).toStrictEqual([
      'get /organisations getOrganisations',
      'get /organisations/{OrganisationId}/softwarestatements getOrganisationSoftwareStatements',
      'post /token getToken',
    ]);
  });

  it('has production and sandbox placeholders for both bases', () => {
    expect(doc.servers).toHaveLength(2);
    expect(doc.paths['/token'].servers).toHaveLength(2);
    for (const s of [...doc.servers, ...doc.paths['/token'].servers]) expect(new URL(s.url).hostname.endsWith('example.com')).toBe(true);
  });

  it('requests a token with the client-credentials form', () => {
    const op = doc.paths['/token'].post;
    const form = deref(doc, op.requestBody.content['application/x-www-form-urlencoded'].schema);
    expect(form.properties.grant_type.enum).toStrictEqual(['client_credentials']);
    expect(Object.keys(form.properties).sort()).toStrictEqual(['client_id', 'grant_type', 'scope']);
    const answer = deref(doc, op.responses['200'].content['application/json'].schema);
    expect(Object.keys(answer.properties)).toEqual(expect.arrayContaining(['access_token', 'token_type', 'expires_in']));
  });

  it('protects the API operations with a bearer token', () => {
    expect(doc.components.securitySchemes.DirectoryBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/organisations'].get.security).toStrictEqual([{ DirectoryBearer: [] }]);
    expect(doc.paths['/organisations/{OrganisationId}/softwarestatements'].get.security).toStrictEqual([{ DirectoryBearer: [] }]);
  });

  it('lists the organisation and software statement fields of the seed', () => {
    const s = doc.components.schemas;
    expect(Object.keys(s.Organisation.properties).sort()).toStrictEqual(['CreatedOn', 'OrganisationId', 'OrganisationName', 'Size', 'Status']);
    expect(s.Organisation.properties.Size).toMatchObject({ type: 'string', maxLength: 255, pattern: '^[^<>]*$' });
    expect(Object.keys(s.SoftwareStatement.properties).sort()).toStrictEqual(['OrganisationId', 'SoftwareClientName', 'SoftwareRoles', 'SoftwareStatementId', 'Status']);
    expect(s.SoftwareStatement.properties.SoftwareRoles).toMatchObject({ type: 'array', items: { type: 'string' } });
  });
});
