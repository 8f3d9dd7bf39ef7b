// Account page: claim the guest's name, verify the address (link from the e-mail), sign in by
// password or one-time code, reset the password (link), list and end sessions, rename, delete.
import { el, forgetMe, me, request, setMe, showWho } from "./api.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// Run a form's action, showing its sentence on failure; the form is disabled while it runs.
function onSubmit(formId, errorId, action) {
  const form = $(formId);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $(errorId).textContent = "";
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => { b.disabled = true; });
    try { await action(); } catch (e) { $(errorId).textContent = e.message; }
    finally { buttons.forEach((b) => { b.disabled = false; }); }
  });
}

// A new session for this browser: keep it and show the account.
function signedIn(player) {
  setMe(player);
  history.replaceState(null, "", "/account");
  $("reset-panel").hidden = true;
  show();
}

async function show() {
  const player = me();
  for (const id of ["claim-panel", "device-panel", "sessions-panel", "delete-panel", "password-panel", "rename-form"]) $(id).hidden = !player;
  if (!player) { $("account-status").textContent = "You are not signed in on this browser. Sign in, or play as a guest from the lobby."; return; }
  showWho(player);
  let account;
  try { account = await request("GET", "/api/players/me/account"); }
  catch { $("account-status").textContent = "This browser's session has ended: sign in again."; $("whoami").textContent = ""; return; }
  $("rename-input").value = account.name;
  $("account-status").textContent = account.email_verified ? `${account.name}, signed in as ${account.email}.`
    : account.claimed ? `${account.name}: follow the link we mailed to ${account.email} to finish claiming the name.`
    : `${account.name}, playing as a guest on this browser only. Claim the name to keep it on every device.`;
  $("account-status").dataset.state = account.email_verified ? "verified" : account.claimed ? "pending" : "guest";
  $("claim-panel").hidden = account.email_verified;
  $("signin-note").textContent = account.email_verified ? "Signing in here as someone else replaces this session."
    : "Signing in here replaces the guest this browser holds now.";
  $("delete-password-label").hidden = !account.claimed;
  $("password-panel").hidden = !account.claimed;
  drawSessions();
}

async function drawSessions() {
  let sessions = [];
  try { sessions = await request("GET", "/api/players/me/sessions"); } catch (e) { $("sessions-error").textContent = e.message; return; }
  $("sessions-body").replaceChildren(...sessions.map((s) => el("tr", { dataset: { sessionId: s.id } },
    el("td", {}, s.label, s.current ? el("span", { class: "muted" }, " (this browser)") : null),
    el("td", {}, new Date(s.created_at).toLocaleString()),
    el("td", {}, s.current ? null : el("button", { type: "button", onclick: async () => {
      try { await request("DELETE", `/api/players/me/sessions/${s.id}`); drawSessions(); }
      catch (e) { $("sessions-error").textContent = e.message; }
    } }, "Sign out")))));
}

onSubmit("rename-form", "rename-error", async () => {
  const renamed = await request("PATCH", "/api/players/me", { name: $("rename-input").value });
  setMe({ ...me(), name: renamed.name });
  show();
});

onSubmit("claim-form", "claim-error", async () => {
  const account = await request("POST", "/api/players/me/account", { email: $("claim-email").value, password: $("claim-password").value });
  $("claim-password").value = "";
  $("claim-note").textContent = `We sent a link to ${account.email}: follow it to finish.`;
  show();
});

onSubmit("signin-form", "signin-error", async () => {
  const player = await request("POST", "/api/accounts/sign-in", { email: $("signin-email").value, password: $("signin-password").value });
  $("signin-password").value = "";
  signedIn(player);
});

onSubmit("code-signin-form", "code-signin-error", async () => {
  signedIn(await request("POST", "/api/accounts/code-sign-in", { code: $("code-signin-input").value }));
  $("code-signin-input").value = "";
});

onSubmit("forgot-form", "forgot-error", async () => {
  $("forgot-note").textContent = (await request("POST", "/api/accounts/reset-request", { email: $("forgot-email").value })).detail;
});

onSubmit("reset-form", "reset-error", async () => {
  signedIn(await request("POST", "/api/accounts/reset", { code: params.get("code"), password: $("reset-password").value }));
});

onSubmit("password-form", "password-error", async () => {
  await request("POST", "/api/players/me/password", { current_password: $("password-current").value, password: $("password-new").value });
  $("password-current").value = $("password-new").value = "";
  $("password-note").textContent = "Changed: your other devices were signed out.";
  drawSessions();
});

$("device-code-button").addEventListener("click", async () => {
  $("device-error").textContent = "";
  try {
    const shown = await request("POST", "/api/players/me/device-code");
    $("device-code").hidden = false;
    $("device-code").textContent = `${shown.code} (until ${new Date(shown.expires_at).toLocaleTimeString()})`;
  } catch (e) { $("device-error").textContent = e.message; }
});

$("logout-all-button").addEventListener("click", async () => {
  try { await request("POST", "/api/players/me/logout-all"); } catch (e) { $("sessions-error").textContent = e.message; return; }
  forgetMe();
  $("whoami").textContent = "";
  show();
});

onSubmit("delete-form", "delete-error", async () => {
  if (!confirm("Delete this account? Your games keep the name “Former player”.")) return;
  await request("POST", "/api/players/me/delete", { password: $("delete-password").value || null });
  forgetMe();
  location.href = "/";
});

// Links from e-mails: /account?action=verify&code=… and /account?action=reset&code=…
if (params.get("action") === "verify" && params.get("code")) {
  try {
    const verified = await request("POST", "/api/accounts/verify", { code: params.get("code") });
    $("link-note").textContent = `${verified.email} is confirmed: sign in with it on any device.`;
    history.replaceState(null, "", "/account");
  } catch (e) { $("link-error").textContent = e.message; }
}
if (params.get("action") === "reset" && params.get("code")) $("reset-panel").hidden = false;
show();
