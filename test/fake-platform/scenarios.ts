// The platform's bad days, switchable at run time (docs/crawler.md §4). "Next N" switches count down
// only on the requests they apply to; setting one again replaces its count; 0/false/null turns it off.

export type ConsentMode = 'off' | 'page' | 'redirect';

/** What one player client answers while the others work (docs/crawler.md §3). */
export type ClientTrouble = 'poisoned' | 'xpv' | 'unplayable' | 'botCheck' | 'captchaViewModel' | 'reload';

/** How browse pages name their next page: the classic renderer, or the 2026 view model, plain or wrapped. */
export type ContinuationShape = 'renderer' | 'viewModel' | 'wrapped';

export interface Block429Options {
  /** Block this many requests, then let requests through again. */
  requests?: number;
  /** Block until this moment (epoch milliseconds). */
  untilMs?: number;
  /** Block for this long from now (milliseconds). */
  forMs?: number;
}

/** The switches, as seen by tests (in process) and by the control endpoint (as JSON). */
export interface ScenarioControls {
  /** HTTP 429 + captcha page on every request. With neither limit: until cleared. Both: the first to run out ends it. */
  block429(opts?: Block429Options): void;
  /** The captcha page (`g-recaptcha`, form to `/das_captcha`) with HTTP 200 for the next `n` requests. */
  captcha(n: number): void;
  /** Player answers LOGIN_REQUIRED "Sign in to confirm you’re not a bot" for the next `n` player requests. */
  botCheck(n: number): void;
  /** Player answers "This content isn't available, try again later" for the next `n` player requests. */
  rateLimitedPlayer(n: number): void;
  /**
   * While open, every player answer is "try again later": the session's rate limit, which lasts up
   * to an hour on the platform. The test closes it (in-process tests close it when the crawler's
   * injected clock has passed the window's end, so no test waits for real).
   */
  tryAgainLaterWindow(open: boolean): void;
  /**
   * While on, every player answer is the bot check: the player endpoint for every client, and the
   * player response the watch page embeds (its HTML shows no captcha). The embed page's player still
   * fetches timed text with its own token when a real browser runs it (embed.ts).
   */
  playersRefused(on: boolean): void;
  /** Player answers carry another video's `videoDetails.videoId` for the next `n` player requests. */
  poison(n: number): void;
  /**
   * App-client player calls (ANDROID, VISIONOS, TVHTML5) must present that app: its own User-Agent
   * and a visitorData the fake's visitor_id gave that client, in the body and in X-Goog-Visitor-Id.
   * Any other such call gets the bot check.
   */
  strictIdentity(on: boolean): void;
  /** visitor_id answers without a visitorData: the platform opens no session (every app call is then an impostor under strictIdentity). */
  visitorDataWithheld(on: boolean): void;
  /** Every player answer to client `client` (e.g. 'VISIONOS') shows this trouble; null = none. */
  clientTrouble(client: string, trouble: ClientTrouble | null): void;
  /** The next `n` player answers carry `errorScreen.playerCaptchaViewModel` (status LOGIN_REQUIRED). */
  captchaViewModel(n: number): void;
  /**
   * The platform retires client `client` at `version` ('*': every version) on top of its own table
   * (player-refusals.ts): its player calls answer HTTP 400 FAILED_PRECONDITION. null un-retires it.
   */
  retireClient(client: string, version: string | null): void;
  /** The status of VISIONOS's made-for-kids refusal: UNPLAYABLE, or ERROR (since July 2026; the default). */
  kidsRefusal(status: 'UNPLAYABLE' | 'ERROR'): void;
  /** Shape of the browse pages' continuation (default 'renderer'). */
  continuationShape(shape: ContinuationShape): void;
  /** Entries per playlist page (default: the platform's 100; null = default). */
  playlistPageSize(size: number | null): void;
  /** The next `n` answers asked with a `$fields` mask come back as `{}` (the mask gone wrong). */
  brokenFieldMask(n: number): void;
  /** Empty 200 from timed text: for the next `n` requests (number), or always for one video (id). */
  emptyTimedText(target: number | string): void;
  /** Delay every answer by `ms` (0 = off). */
  slow(ms: number): void;
  /**
   * The platform's timed-text stall (since late August 2026): a token-bound timed-text request
   * (`exp=xpe`/`xpv`, even with a valid token) is held `ms` and then answered with an empty 200;
   * `which: 'all'` stalls every timed-text request so. null = off.
   */
  timedTextStall(ms: number | null, which?: 'token-bound' | 'all'): void;
  /** Truncated JSON/XML or garbage HTML for the next `n` requests. */
  malformed(n: number): void;
  /** HTTP 5xx (default 500) for the next `n` requests. */
  serverError(n: number, status?: number): void;
  /** HTML pages without a consent cookie get the consent page (true/'page') or a 302 to consent.youtube.com ('redirect'). */
  consentWall(mode: boolean | ConsentMode): void;
  /** Every request without a valid `fake_clearance` cookie for its User-Agent gets the JS challenge (challenge.ts). */
  jsChallenge(on: boolean): void;
  /** The channel feed answers this status for every channel (404 or 500 seen in 2024/2026); null = healthy. */
  feedOutage(status: number | null): void;
  clearScenarios(): void;
}

export interface ScenarioState {
  block429: { requests: number | null; untilMs: number | null } | null;
  captcha: number;
  botCheck: number;
  rateLimitedPlayer: number;
  tryAgainLaterWindow: boolean;
  playersRefused: boolean;
  poison: number;
  emptyTimedText: number;
  emptyTimedTextVideos: string[];
  slowMs: number;
  timedTextStall: { ms: number; which: 'token-bound' | 'all' } | null;
  malformed: number;
  serverError: number;
  serverErrorStatus: number;
  consentWall: ConsentMode;
  jsChallenge: boolean;
  feedOutage: number | null;
  strictIdentity: boolean;
  visitorDataWithheld: boolean;
  clientTrouble: Record<string, ClientTrouble>;
  captchaViewModel: number;
  retiredClients: string[];
  kidsRefusal: 'UNPLAYABLE' | 'ERROR';
  continuationShape: ContinuationShape;
  brokenFieldMask: number;
  playlistPageSize: number | null;
}

type Countdown = 'captcha' | 'botCheck' | 'rateLimitedPlayer' | 'poison' | 'emptyTimedText' | 'malformed' | 'serverError' | 'captchaViewModel' | 'brokenFieldMask';

function count(n: number): number {
  if (!Number.isFinite(n) || n < 0) throw new Error(`fake platform: bad count ${n}`);
  return Math.floor(n);
}

function initialState(): ScenarioState {
  return {
    block429: null,
    captcha: 0,
    botCheck: 0,
    rateLimitedPlayer: 0,
    tryAgainLaterWindow: false,
    playersRefused: false,
    poison: 0,
    emptyTimedText: 0,
    emptyTimedTextVideos: [],
    slowMs: 0,
    timedTextStall: null,
    malformed: 0,
    serverError: 0,
    serverErrorStatus: 500,
    consentWall: 'off',
    jsChallenge: false,
    feedOutage: null,
    strictIdentity: false,
    visitorDataWithheld: false,
    clientTrouble: {},
    captchaViewModel: 0,
    retiredClients: [],
    kidsRefusal: 'ERROR',
    continuationShape: 'renderer',
    brokenFieldMask: 0,
    playlistPageSize: null,
  };
}

export class Scenarios implements ScenarioControls {
  private s: ScenarioState = initialState();
  /** Called when the JS challenge is switched, so issued clearances can be forgotten. */
  onJsChallenge: (on: boolean) => void = () => undefined;

  block429(opts: Block429Options = {}): void {
    const until = opts.untilMs ?? (opts.forMs !== undefined ? Date.now() + opts.forMs : null);
    this.s.block429 = { requests: opts.requests !== undefined ? count(opts.requests) : null, untilMs: until };
  }
  captcha(n: number): void {
    this.s.captcha = count(n);
  }
  botCheck(n: number): void {
    this.s.botCheck = count(n);
  }
  rateLimitedPlayer(n: number): void {
    this.s.rateLimitedPlayer = count(n);
  }
  tryAgainLaterWindow(open: boolean): void {
    this.s.tryAgainLaterWindow = open;
  }
  playersRefused(on: boolean): void {
    this.s.playersRefused = on;
  }
  poison(n: number): void {
    this.s.poison = count(n);
  }
  emptyTimedText(target: number | string): void {
    if (typeof target === 'string') this.s.emptyTimedTextVideos.push(target);
    else this.s.emptyTimedText = count(target);
  }
  slow(ms: number): void {
    this.s.slowMs = count(ms);
  }
  timedTextStall(ms: number | null, which: 'token-bound' | 'all' = 'token-bound'): void {
    this.s.timedTextStall = ms === null ? null : { ms: count(ms), which };
  }
  malformed(n: number): void {
    this.s.malformed = count(n);
  }
  serverError(n: number, status = 500): void {
    if (status < 500 || status > 599) throw new Error(`fake platform: ${status} is not a 5xx status`);
    this.s.serverError = count(n);
    this.s.serverErrorStatus = status;
  }
  consentWall(mode: boolean | ConsentMode): void {
    this.s.consentWall = mode === true ? 'page' : mode === false ? 'off' : mode;
  }
  jsChallenge(on: boolean): void {
    this.s.jsChallenge = on;
    this.onJsChallenge(on);
  }
  feedOutage(status: number | null): void {
    this.s.feedOutage = status;
  }
  strictIdentity(on: boolean): void {
    this.s.strictIdentity = on;
  }
  visitorDataWithheld(on: boolean): void {
    this.s.visitorDataWithheld = on;
  }
  clientTrouble(client: string, trouble: ClientTrouble | null): void {
    if (trouble === null) delete this.s.clientTrouble[client];
    else this.s.clientTrouble[client] = trouble;
  }
  captchaViewModel(n: number): void {
    this.s.captchaViewModel = count(n);
  }
  retireClient(client: string, version: string | null): void {
    if (version === null) this.s.retiredClients = this.s.retiredClients.filter((c) => !c.startsWith(`${client}:`));
    else this.s.retiredClients.push(`${client}:${version}`);
  }
  kidsRefusal(status: 'UNPLAYABLE' | 'ERROR'): void {
    this.s.kidsRefusal = status;
  }
  continuationShape(shape: ContinuationShape): void {
    this.s.continuationShape = shape;
  }
  brokenFieldMask(n: number): void {
    this.s.brokenFieldMask = count(n);
  }
  playlistPageSize(size: number | null): void {
    this.s.playlistPageSize = size === null ? null : Math.max(1, count(size));
  }
  clearScenarios(): void {
    const wasChallenging = this.s.jsChallenge;
    this.s = initialState();
    if (wasChallenging) this.onJsChallenge(false);
  }

  /** A copy of the current switches (for tests and GET /__fake/scenario). */
  state(): ScenarioState {
    return structuredClone(this.s);
  }

  /** Whether a "next N" switch applies to this request; counts it down when it does. */
  take(name: Countdown): boolean {
    if (this.s[name] <= 0) return false;
    this.s[name] -= 1;
    return true;
  }

  /** Whether this request falls in the 429 window; counts it down when it does. */
  take429(now = Date.now()): boolean {
    const block = this.s.block429;
    if (!block) return false;
    const expired = (block.requests !== null && block.requests <= 0) || (block.untilMs !== null && now >= block.untilMs);
    if (expired) {
      this.s.block429 = null;
      return false;
    }
    if (block.requests !== null) block.requests -= 1;
    return true;
  }

  timedTextRefusedFor(videoId: string): boolean {
    return this.s.emptyTimedTextVideos.includes(videoId);
  }

  get tryAgainLater(): boolean {
    return this.s.tryAgainLaterWindow;
  }
  get refusingPlayers(): boolean {
    return this.s.playersRefused;
  }
  get slowMs(): number {
    return this.s.slowMs;
  }
  /** How long this timed-text request is held before its empty answer; null = not stalled. */
  timedTextStallFor(tokenBound: boolean): number | null {
    const stall = this.s.timedTextStall;
    return stall !== null && (stall.which === 'all' || tokenBound) ? stall.ms : null;
  }
  get serverErrorStatus(): number {
    return this.s.serverErrorStatus;
  }
  get consent(): ConsentMode {
    return this.s.consentWall;
  }
  get challenging(): boolean {
    return this.s.jsChallenge;
  }
  get feedStatus(): number | null {
    return this.s.feedOutage;
  }
  get strict(): boolean {
    return this.s.strictIdentity;
  }
  get withholdingVisitorData(): boolean {
    return this.s.visitorDataWithheld;
  }
  get retired(): ReadonlySet<string> {
    return new Set(this.s.retiredClients);
  }
  get kidsStatus(): 'UNPLAYABLE' | 'ERROR' {
    return this.s.kidsRefusal;
  }
  troubleFor(client: string): ClientTrouble | null {
    return this.s.clientTrouble[client] ?? null;
  }
  get continuation(): ContinuationShape {
    return this.s.continuationShape;
  }
  get pageSizeOfPlaylists(): number | null {
    return this.s.playlistPageSize;
  }
}
