// The rule a device applies to the payloads of POST /compose answers
// (docs/spec/screen.md section 2, push.md P22), for a service worker: the
// same rule as the Swift library's DeviceScreen, checked by the same cases
// (test-fixtures/device.json, checks/fixtures/device_screen_test.mjs).
// No I/O: the worker keeps `state` (plain JSON) in IndexedDB between pushes
// and carries out each returned change with the Notifications API.

export class DeviceScreen {
  // state: {shown: {group: stamp}, seen: {group: stamp}, floor, badgeStamp}
  constructor(state = {}) {
    this.shown = { ...(state.shown ?? {}) };
    this.seen = { ...(state.seen ?? {}) };
    this.floor = state.floor ?? null;
    this.badgeStamp = state.badgeStamp ?? null;
  }

  get state() {
    return { shown: this.shown, seen: this.seen, floor: this.floor, badgeStamp: this.badgeStamp };
  }

  // An alert of `group`: {post, remove, badge}. isFallback: the payload's kind is "fallback".
  alert(group, stamp, isFallback, badge) {
    const last = this.seen[group];
    if ((last !== undefined && stamp <= last) || (this.floor !== null && stamp < this.floor)) {
      return { post: false, remove: [], badge: null };
    }
    this.seen[group] = stamp;
    let remove = [];
    if (!isFallback) {
      // An answer of a successful fetch covers everything unread and withdraws every other group.
      remove = this.#removeOlder(stamp, group);
      this.floor = Math.max(this.floor ?? stamp, stamp);
    }
    this.shown[group] = stamp;
    return { post: true, remove, badge: this.#takeBadge(badge, stamp) };
  }

  // A withdrawal: the notifications of `groups` older than `stamp` leave;
  // the others and the floor stay (its answer may keep its own group unsent).
  withdrawal(groups, stamp, badge) {
    const remove = [];
    for (const group of [...new Set(groups)].sort()) {
      if (this.seen[group] === undefined || this.seen[group] < stamp) this.seen[group] = stamp;
      if (this.shown[group] !== undefined && this.shown[group] < stamp) {
        delete this.shown[group];
        remove.push(group);
      }
    }
    return { post: false, remove, badge: this.#takeBadge(badge, stamp) };
  }

  // The user opened or dismissed the notification of `group`.
  opened(group) {
    delete this.shown[group];
  }

  #removeOlder(stamp, kept) {
    const older = Object.keys(this.shown).filter((g) => g !== kept && this.shown[g] < stamp).sort();
    for (const group of older) delete this.shown[group];
    return older;
  }

  #takeBadge(badge, stamp) {
    if (badge === undefined || badge === null) return null;
    if (this.badgeStamp !== null && stamp <= this.badgeStamp) return null;
    this.badgeStamp = stamp;
    return badge;
  }
}
