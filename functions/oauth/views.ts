/**
 * The HTML of the authorization endpoint's error page and of the consent screen. Every value
 * that comes from outside (app names, addresses, messages) goes through `escapeHtml`. No
 * scripts: the pages work as plain forms, and the content security policy (http/page.ts)
 * forbids scripts anyway.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * An empty icon: without one a browser asks the origin for /favicon.ico, which no API serves,
 * and every page view logs a 404.
 */
export const NO_PAGE_ICON = '<link rel="icon" href="data:,">';

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f6f4; color: #1d2a1f; margin: 0; }
  main { max-width: 26rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 12px; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 1.35rem; margin: 0 0 1rem; }
  .brand { font-weight: 700; color: #2f7d32; letter-spacing: .02em; margin-bottom: 1.5rem; }
  form { margin: 1rem 0; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=email], input[type=text] { width: 100%; box-sizing: border-box; padding: .55rem; font-size: 1rem; border: 1px solid #9aa59b; border-radius: 6px; }
  button { font-size: 1rem; padding: .6rem 1.1rem; border-radius: 6px; border: 1px solid #2f7d32; background: #2f7d32; color: #fff; cursor: pointer; margin: .5rem .5rem 0 0; }
  button.secondary { background: #fff; color: #2f7d32; }
  .notice { background: #fff7e0; border: 1px solid #e2c46a; padding: .6rem .8rem; border-radius: 6px; }
  .fine { color: #5b665c; font-size: .85rem; }
  .or { text-align: center; color: #5b665c; margin: 1.25rem 0 .25rem; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Spoke</title>
${NO_PAGE_ICON}
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand">Spoke</div>
${body}
</main>
</body>
</html>
`;
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

export interface ConsentPageModel {
  appName: string;
  requestId: string;
  csrfToken: string;
  /** What the app will be able to do, one line each. */
  abilities: string[];
  rider?: { name?: string; email?: string };
  emailChallenge?: { reference: string; maskedEmail: string };
  notice?: string;
  /** When the request expires, for the fine print. */
  expiresAt: Date;
}

const hidden = (model: ConsentPageModel) =>
  `<input type="hidden" name="request" value="${escapeHtml(model.requestId)}">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrfToken)}">`;

function signInSection(model: ConsentPageModel): string {
  const app = escapeHtml(model.appName);
  const emailStep = model.emailChallenge
    ? `<p>If ${escapeHtml(model.emailChallenge.maskedEmail)} belongs to a Spoke account, we have sent it a sign-in code (reference ${escapeHtml(model.emailChallenge.reference)}).</p>
<form method="post">
${hidden(model)}
<label for="code">Code from the email</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button name="action" value="verify-code">Sign in</button>
</form>`
    : `<form method="post">
${hidden(model)}
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required>
<button name="action" value="send-code">Email me a code</button>
</form>`;
  return `<h1>Sign in to continue to ${app}</h1>
<form method="post">
${hidden(model)}
<button name="action" value="sign-in-idp">Sign in with your Spoke account</button>
</form>
<p class="or">or sign in with a code sent by email</p>
${emailStep}`;
}

function decisionSection(model: ConsentPageModel): string {
  const app = escapeHtml(model.appName);
  const who = [model.rider?.name, model.rider?.email].filter(Boolean).map((part) => escapeHtml(part!));
  const signedInAs = who.length === 2 ? `${who[0]} (${who[1]})` : (who[0] ?? 'your Spoke account');
  const abilities = model.abilities.map((ability) => `<li>${escapeHtml(ability)}</li>`).join('\n');
  return `<h1>${app} wants to use your Spoke account</h1>
<p>Signed in as ${signedInAs}.</p>
<p>If you allow it, ${app} will be able to:</p>
<ul>
${abilities}
</ul>
<p class="fine">It cannot see your ride history, saved routes, profile or settings.</p>
<form method="post">
${hidden(model)}
<button name="action" value="approve">Allow</button>
</form>`;
}

export function consentPage(model: ConsentPageModel): string {
  const body = [
    model.notice ? `<p class="notice" role="status">${escapeHtml(model.notice)}</p>` : '',
    model.rider ? decisionSection(model) : signInSection(model),
    `<form method="post">
${hidden(model)}
<button class="secondary" name="action" value="cancel">Cancel</button>
</form>`,
    `<p class="fine">This request is valid until ${escapeHtml(model.expiresAt.toISOString().slice(11, 19))} UTC.</p>`,
  ].join('\n');
  return layout(`Sign in to ${model.appName}`, body);
}
