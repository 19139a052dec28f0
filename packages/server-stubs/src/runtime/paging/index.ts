export { createPagingAdapter, DEFAULT_PAGE_SIZE, type LfiPageQuery, type PageCall, type PagingOptions, type TppPage } from './adapter.js';
export { checkAnswer, type CheckedAnswer } from './lfi-answer.js';
export { InvalidPageError, LfiContractError, LfiResponseError } from './errors.js';
export { parseInstant, compareInstants, type Instant } from './instant.js';
export { pageLinks, requestedPage, selfLink, withPage, type PageLinks } from './links.js';
export { checkOrder, compareIds, sortRecords, statementOrder, transactionOrder, type OrderRule, type OrderViolation } from './order.js';
export { lfiPage, type LfiPage } from './lfi-page.js';
export { httpPageSource, type HttpPageSourceOptions } from './http-source.js';
export { fetchLfiJson, lfiFailureOf, LfiUnavailableError, type LfiFailureKind, type LfiFetchOptions } from './lfi-fetch.js';
