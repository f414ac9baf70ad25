// The page's screens by address. Each screen is a module with `enter(params)` and `leave()`
// that owns the elements marked `data-screen` with its name; the router shows those of the
// screen in use and hides every other's, so nothing of one screen stays on another. The
// address says where the page is: a link to another screen (`?…`) is followed without a
// reload and goes into the history, so Back goes back, and a reload lands on the same screen.

export class Router {
  // `screens`: name → screen; `pick(params)`: the name of the screen an address shows.
  constructor(screens, pick) {
    this.screens = screens;
    this.pick = pick;
    this.current = null;
    window.addEventListener("popstate", () => this.show());
    document.addEventListener("click", (event) => {
      const link = event.target.closest?.("a[href]");
      if (!link || link.target || link.hasAttribute("download") || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const to = new URL(link.href, location.href);
      if (to.origin !== location.origin || to.pathname !== location.pathname || link.getAttribute("href") === "#") return;
      event.preventDefault();
      this.go(to.search);
    });
  }

  // Goes to the screen of address `search` (`?replay=ID`, or "" for the first screen),
  // keeping this one in the history (or replacing it: `replace`).
  async go(search, { replace = false } = {}) {
    const url = `${location.pathname}${search}`;
    if (replace) history.replaceState(null, "", url);
    else if (`${location.pathname}${location.search}` !== url) history.pushState(null, "", url);
    await this.show();
  }

  // Changes the address of the screen in use without leaving it (a game's seat taken, a
  // rematch): Back does not come back to the address it replaces.
  rename(search) {
    history.replaceState(null, "", `${location.pathname}${search}`);
  }

  // The moment of the screen in use (a game's `setup`, `game` or `over`): the body's
  // `data-screen` says it; which elements show is still the screen's.
  phase(name) {
    if (this.current) document.body.dataset.screen = name;
  }

  // Draws the screen in use again (its words changed): the screen's own `refresh` if it has
  // one (a game goes on), else it is entered again.
  async refresh() {
    if (!this.current) return;
    if (this.current.refresh) this.current.refresh();
    else await this.show();
  }

  // Shows the screen the address names now.
  async show() {
    const params = new URLSearchParams(location.search);
    const name = this.pick(params);
    this.current?.leave();
    this.current = this.screens[name];
    document.body.dataset.screen = name;
    for (const el of document.querySelectorAll("[data-screen]")) {
      el.hidden = !el.dataset.screen.split(" ").includes(name);
    }
    window.scrollTo(0, 0);
    await this.current.enter(params, this);
  }
}
