/* The QR link's page: claim the seat with the one-time token, then open the phone page. */
"use strict";
(async function join() {
  const status = document.getElementById("join-status");
  const reply = await api("/api/join", { token: window.PAGE.token, lang: window.PAGE.lang });
  if (reply.status === 200 && reply.data.ok) {
    window.location.replace("/phone");
  } else {
    status.textContent = reply.status === 403 ? t("join_failed") : (reply.data.error || t("join_failed"));
    status.className = "error-box";
  }
})();
