// Every page of the site: a path pattern (":name" is a parameter) and the module under
// /static/pages/ whose default export draws it. The server answers each of these paths with
// index.html (server/web.py keeps the same list); the router in app.js picks the page.
export const ROUTES = [
  { path: "/", page: "lobby" },
  { path: "/login", page: "login" },
  { path: "/register", page: "register" },
  { path: "/account", page: "account" },
  { path: "/history", page: "history" },
  { path: "/history/:kind/:id", page: "replay" },
  { path: "/rules/:game", page: "rules" },
  { path: "/online", page: "online" },
  { path: "/casino/:id", page: "casino" },
  { path: "/exchange/:id", page: "exchange" },
  { path: "/vinte", page: "vinte" },
  { path: "/vinte/:id", page: "vinte" },
  { path: "/lab", page: "lab" },
  { path: "/admin", page: "admin" },
  { path: "/admin/tables", page: "admin-tables" },
  { path: "/admin/rounds", page: "admin-rounds" },
  { path: "/admin/rounds/:kind/:id", page: "admin-replay" },
  { path: "/admin/accounts", page: "admin-accounts" },
  { path: "/admin/audit", page: "admin-audit" },
];

export function match(pathname) {
  for (const route of ROUTES) {
    const want = route.path.split("/");
    const got = pathname.replace(/\/+$/, "").split("/");
    if (route.path === "/" && (pathname === "/" || pathname === "")) return { route, params: {} };
    if (want.length !== got.length) continue;
    const params = {};
    let ok = true;
    for (let i = 0; i < want.length; i++) {
      if (want[i].startsWith(":")) params[want[i].slice(1)] = decodeURIComponent(got[i]);
      else if (want[i] !== got[i]) ok = false;
    }
    if (ok) return { route, params };
  }
  return null;
}
