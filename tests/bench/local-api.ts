/**
 * What the end-to-end benchmarks share: a JSON caller of the local stack, and a new company with
 * its owner's token (the sign-up and login a user goes through).
 */
export function localApi(base: string) {
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const signUp = async () => {
    const email = `bench-${Date.now()}@test.dev`;
    const signup = await call('POST', '/api/companies/cadastro', {
      companyName: 'Bench',
      name: 'Owner',
      email,
      password: 'secret123',
      phone: '11999998888',
      planId: 1,
    });
    const { token } = await call('POST', '/api/auth/login', { email, password: 'secret123' });
    return { companyId: signup.company.id as number, token: token as string };
  };
  return { call, signUp };
}
