/**
 * "Follow a paging link" on the sandbox's reference pages. Scalar's console shows an
 * answer's `Links` as JSON text, and inside the reference page its address bar is read-only,
 * so a person cannot send `Links.Next` from the console. This small panel of the page's own
 * lists the `Links` of the last answer from this hub as links; a click sends that exact URL
 * with the headers the console's last request carried (its token, its interaction id) and
 * shows the answer, whose own `Links` can be followed in turn.
 *
 * The panel learns of answers by wrapping `window.fetch` before Scalar loads: requests pass
 * through unchanged; only GET answers from the page's API base are read (a clone). Links
 * outside that base are not offered, so the token is never sent anywhere else.
 */
import { scriptJson } from './html.js';

/** What the panel needs: the API base its links must start with (hub origin + version prefix). */
export interface FollowLinksSettings {
  readonly apiBase: string;
}

export const FOLLOW_LINKS_ID = 'follow-links';

const STYLE = `
  #${FOLLOW_LINKS_ID} { position: fixed; right: 12px; bottom: 12px; z-index: 2147483000; width: min(34rem, calc(100vw - 24px)); max-height: 45vh; display: flex; flex-direction: column; gap: 6px; padding: 8px 10px; font: 13px/1.4 system-ui, sans-serif; color: #1b1f24; background: #fff; border: 1px solid #8c959f; border-radius: 6px; box-shadow: 0 4px 16px rgba(0,0,0,.2); }
  #${FOLLOW_LINKS_ID}[hidden] { display: none; }
  #${FOLLOW_LINKS_ID} header { display: flex; justify-content: space-between; font-weight: 600; }
  #${FOLLOW_LINKS_ID} nav { display: flex; flex-wrap: wrap; gap: 10px; }
  #${FOLLOW_LINKS_ID} nav a { font-weight: 600; }
  #${FOLLOW_LINKS_ID} pre { margin: 0; overflow: auto; min-height: 3em; font: 12px/1.35 ui-monospace, monospace; background: #f6f8fa; padding: 6px; }
  #${FOLLOW_LINKS_ID} pre:empty { display: none; }
`;

/**
 * The browser script, plain ES2022. It builds the panel with DOM calls and `textContent`
 * only, so nothing an answer carries becomes markup.
 */
const SCRIPT = `(() => {
  'use strict';
  const settings = JSON.parse(document.getElementById('${FOLLOW_LINKS_ID}-settings').textContent);
  const apiBase = settings.apiBase;
  const onThisApi = (url) => typeof url === 'string' && (url === apiBase || url.startsWith(apiBase + '/') || url.startsWith(apiBase + '?'));
  const sendFetch = window.fetch.bind(window);
  let consoleHeaders = null;

  const panel = document.createElement('aside');
  panel.id = '${FOLLOW_LINKS_ID}';
  panel.hidden = true;
  panel.setAttribute('aria-label', 'Paging links of the last answer');
  const header = document.createElement('header');
  const title = document.createElement('span');
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  close.addEventListener('click', () => { panel.hidden = true; });
  header.append(title, close);
  const status = document.createElement('div');
  status.className = 'status';
  const links = document.createElement('nav');
  const body = document.createElement('pre');
  panel.append(header, status, links, body);

  function show(url, answer, text, withBody) {
    title.textContent = 'Links of the last answer';
    status.textContent = answer === null ? 'GET ' + url + ': ' + text : 'GET ' + url + ': ' + answer.status + ' ' + answer.statusText;
    links.replaceChildren();
    body.textContent = '';
    let parsed = null;
    try { parsed = JSON.parse(text); } catch { parsed = null; }
    const found = parsed !== null && typeof parsed === 'object' && parsed.Links !== null && typeof parsed.Links === 'object' ? parsed.Links : {};
    for (const [name, target] of Object.entries(found)) {
      if (!onThisApi(target)) continue;
      const link = document.createElement('a');
      link.href = target;
      link.textContent = name;
      link.title = 'Send GET ' + target + ' with the console\\'s token and show the answer here';
      link.addEventListener('click', (event) => { event.preventDefault(); void follow(target); });
      links.append(link);
    }
    if (links.childElementCount === 0) links.textContent = 'No Links in this answer.';
    if (withBody) body.textContent = parsed === null ? text : JSON.stringify(parsed, null, 2);
    if (!document.body.contains(panel)) document.body.append(panel);
    panel.hidden = false;
  }

  async function follow(url) {
    status.textContent = 'GET ' + url + ': sending';
    try {
      const answer = await sendFetch(url, { headers: consoleHeaders ?? undefined });
      show(url, answer, await answer.text(), true);
    } catch (error) {
      show(url, null, 'request failed: ' + (error && error.message ? error.message : String(error)), true);
    }
  }

  function requestOf(input, init) {
    const isRequest = typeof Request !== 'undefined' && input instanceof Request;
    return {
      url: isRequest ? input.url : String(input),
      method: String((init && init.method) || (isRequest ? input.method : 'GET')).toUpperCase(),
      headers: new Headers((init && init.headers) || (isRequest ? input.headers : undefined)),
    };
  }

  window.fetch = async (input, init) => {
    const answer = await sendFetch(input, init);
    try {
      const request = requestOf(input, init);
      if (request.method === 'GET' && onThisApi(request.url)) {
        consoleHeaders = request.headers;
        show(request.url, answer, await answer.clone().text(), false);
      }
    } catch {
      // The panel is an aid; the console's own request never fails because of it.
    }
    return answer;
  };
})();`;

/** The `<head>` part: the panel's settings, its styles and its script (before Scalar's bundle). */
export function followLinksHead(settings: FollowLinksSettings): string {
  return `<style>${STYLE}</style>
<script id="${FOLLOW_LINKS_ID}-settings" type="application/json">${scriptJson(settings)}</script>
<script>${SCRIPT}</script>`;
}
