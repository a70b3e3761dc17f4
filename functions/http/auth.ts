import { httpModule, route, reply } from '#lib/http';
import { LoginBody, ForgetPasswordParams, ResetPasswordBody } from '#shared/schemas/accounts';
import * as accounts from '#lib/accounts/service';
import { refreshCookie, revokeRefreshToken, REFRESH_COOKIE } from '#lib/accounts/sessions';
import { signWsTicket } from '#lib/auth';

export const handler = httpModule({
  'POST /auth/login': route({ public: true, body: LoginBody }, async ({ body }) => {
    const { token, refreshToken, user, company } = await accounts.login(body.email, body.password);
    return reply({ token, user, company }, 200, { cookies: [refreshCookie(refreshToken)] });
  }),

  'POST /auth/refresh_token': route({ public: true }, async ({ cookies }) => {
    const { token, refreshToken, user, company } = await accounts.refresh(cookies[REFRESH_COOKIE]);
    return reply({ token, user, company }, 200, { cookies: [refreshCookie(refreshToken)] });
  }),

  'DELETE /auth/logout': route({ public: true }, async ({ cookies }) => {
    const token = cookies[REFRESH_COOKIE];
    if (token) await revokeRefreshToken(token);
    return reply(undefined, 204, { cookies: [refreshCookie(null)] });
  }),

  'GET /auth/me': route({}, async ({ auth }) => accounts.me(auth.companyId, auth.userId)),

  'POST /auth/ws-ticket': route({}, async ({ auth }) => ({ ticket: await signWsTicket(auth) })),

  'POST /forgetpassword/{email}': route({ public: true, params: ForgetPasswordParams }, async ({ params }) => {
    await accounts.requestPasswordReset(params.email);
    return { sent: true };
  }),

  'POST /resetpasswords': route({ public: true, body: ResetPasswordBody }, async ({ body }) => {
    await accounts.resetPassword(body.email, body.token, body.password);
    return { updated: true };
  }),
});
