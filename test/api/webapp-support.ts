// The web app tests' sign-in steps, as a browser takes them: the form's token and cookie, the POST.

import type { TestApi } from './support';

/** The sign-in form's token and its cookie, as a browser would have them. */
export async function signInForm(api: TestApi): Promise<{ csrf: string; cookie: string }> {
  const res = await api.get('/app/', { key: null });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tf_pre='))!.split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())![1]!;
  return { csrf, cookie };
}

export async function signIn(api: TestApi, key: string, headers: Record<string, string> = {}): Promise<Response> {
  const { csrf, cookie } = await signInForm(api);
  return api.get('/app/sign-in', {
    key: null, method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: api.base, ...headers },
    body: new URLSearchParams({ csrf, api_key: key }).toString(),
  });
}

export const sessionOf = (res: Response): string => res.headers.getSetCookie().find((c) => c.startsWith('tf_session='))!.split(';')[0]!;

/** The session's CSRF token, as its page's forms carry it. */
export async function csrfOf(api: TestApi, session: string): Promise<string> {
  const home = await api.get('/app/', { key: null, headers: { Cookie: session } });
  return /name="csrf" value="([^"]+)"/.exec(await home.text())![1]!;
}

/** A form post of the signed-in reader, as a browser of the app's own page sends it. */
export function postForm(api: TestApi, session: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return api.get(path, {
    key: null, method: 'POST', redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: session, Origin: api.base, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}
