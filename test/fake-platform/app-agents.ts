// Which User-Agents are the platform's own apps: the identity check (identity.ts) holds an app
// client to its app's agent, and the JS challenge (challenge.ts) never stands in an app's way.

/** The User-Agent each app client is known by (NewPipe's and yt-dlp's 2026 requests). */
export const APP_AGENTS: Readonly<Record<string, RegExp>> = {
  ANDROID: /^com\.google\.android\.youtube\/\d/,
  VISIONOS: /^com\.google\.visionos\.youtube\/\d/,
  IOS: /^com\.google\.ios\.youtube\/\d/,
  ANDROID_VR: /^com\.google\.android\.apps\.youtube\.vr\.oculus\/\d/,
  TVHTML5: /\bCobalt\//,
};

export const isAppClient = (name: string): boolean => name in APP_AGENTS;

/** Whether a User-Agent is one of the apps' (not a browser's). */
export const isAppAgent = (userAgent: string): boolean => Object.values(APP_AGENTS).some((re) => re.test(userAgent));
