// The checkout page's one script (progressive enhancement): before paying it asks the sandbox to check the card entry
// (`sandbox_action=check`, answered in JSON), shows the problems in the page's error area, clears the CVV only and
// keeps the number, expiry and name in their inputs, so they never make a round trip into server-written HTML. With
// no problems (or no usable answer) it submits the form as before. Without JavaScript the page works as a plain form.
import { createHash } from 'node:crypto';

/** The script's text, exactly as the checkout page serves it inside `<script>`. */
export const CARD_CHECK_SCRIPT = `(function () {
  var form = document.getElementById('card-form');
  var area = document.getElementById('card-problems');
  if (!form || !area || !window.fetch || !window.URLSearchParams || !form.requestSubmit) return;
  var checked = false;
  var busy = false;
  function show(problems) {
    var box = document.createElement('div');
    box.className = 'errors';
    box.setAttribute('role', 'alert');
    var title = document.createElement('b');
    title.textContent = 'Please check the form';
    var list = document.createElement('ul');
    var bad = [];
    problems.forEach(function (problem) {
      var item = document.createElement('li');
      item.textContent = String(problem.message);
      list.appendChild(item);
      bad.push(String(problem.field));
    });
    box.appendChild(title);
    box.appendChild(list);
    area.replaceChildren(box);
    Array.prototype.forEach.call(form.querySelectorAll('input'), function (input) {
      if (bad.indexOf(input.name) >= 0) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    });
    form.elements.namedItem('cvv').value = '';
    var first = form.elements.namedItem(bad[0]);
    if (first && first.focus) first.focus();
  }
  form.addEventListener('submit', function (event) {
    var button = event.submitter;
    if (checked || !button || button.value !== 'pay') return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    var body = new URLSearchParams(new FormData(form));
    body.set('sandbox_action', 'check');
    fetch(form.action, { method: 'POST', body: body, cache: 'no-store', credentials: 'same-origin', redirect: 'error' })
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(function (answer) {
        busy = false;
        if (answer && Array.isArray(answer.problems) && answer.problems.length > 0) return show(answer.problems);
        checked = true;
        form.requestSubmit(button);
      });
  });
})();`;

/** The CSP source naming the script: its SHA-256 over the exact text served, computed when this module loads. */
export const CARD_CHECK_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(CARD_CHECK_SCRIPT, 'utf8').digest('base64')}'`;

/** The CSP of the shopper pages: nothing but their inline style. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** The checkout page's CSP: the pages' own, plus exactly the check script (by hash) and requests to the sandbox itself. */
export const CHECKOUT_PAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${CARD_CHECK_SCRIPT_SOURCE}; connect-src 'self'; frame-ancestors 'none'`;
