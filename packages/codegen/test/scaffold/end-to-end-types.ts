/** The shapes the end-to-end test reads from the scratch project's modules (checked there by tsc). */
interface Reply<T> {
  status: number;
  body: T;
}
export declare function start(): Promise<{ origin: string; close(): Promise<void> }>;
export declare function client(origin: string): {
  GetAccounts(): Promise<Reply<{ Data: { Account: unknown[] }; Links: { Self: string } }>>;
  GetAccountsAccountId(params: { path: { AccountId: string } }): Promise<Reply<unknown>>;
  ReadAccountAccessConsentAttestations(params: { path: { ConsentId: string } }): Promise<Reply<unknown>>;
};
