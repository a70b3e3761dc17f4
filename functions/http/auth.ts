import '#lib/startup';
import { httpModule, route, reply } from '#lib/http';
import { LoginBody, LogoutBody, ForgetPasswordParams, ResetPasswordBody } from '#shared/schemas/accounts';
import * as accounts from '#lib/accounts/service';
import {
  auditPasswordReset,
  auditSignInFailure,
  logout,
  logoutEverywhere,
  refreshCookie,
  REFRESH_COOKIE,
} from '#lib/accounts/sessions';
import { actorOf } from '#lib/audit/actor';
import { authenticate, signWsTicket } from '#lib/auth';
import { forgetEndpoint } from '#lib/push/service';

export const handler = httpModule({
  'POST /auth/login': route({ public: true, body: LoginBody }, async ({ body, clientAddress }) => {
    const { token, refreshToken, user, company } = await accounts
      .login(body.email, body.password, clientAddress)
      .catch((err) => auditSignInFailure(err, body.email, clientAddress));
    return reply({ token, user, company }, 200, { cookies: [refreshCookie(refreshToken)] });
  }),

  'POST /auth/refresh_token': route({ public: true }, async ({ cookies }) => {
    const { token, refreshToken, user, company } = await accounts.refresh(cookies[REFRESH_COOKIE]);
    return reply({ token, user, company }, 200, { cookies: [refreshCookie(refreshToken)] });
  }),

  'DELETE /auth/logout': route({ public: true, body: LogoutBody }, async ({ cookies, event, body }) => {
    // a bearer token that is not (or no longer) valid names no session to end
    const ended = await logout(cookies[REFRESH_COOKIE], await authenticate(event).catch(() => undefined));
    // the device signing out stops receiving pushes (issue 25)
    const { pushEndpoint } = body;
    if (pushEndpoint) await Promise.all(ended.map((user) => forgetEndpoint(user, pushEndpoint)));
    return reply(undefined, 204, { cookies: [refreshCookie(null)] });
  }),

  // every session of the caller ends (a lost phone, a shared computer); recorded on the company's trail
  'DELETE /auth/sessions': route({ whileExpired: true }, async ({ auth, clientAddress }) => {
    await logoutEverywhere(auth, actorOf(auth, clientAddress));
    return reply(undefined, 204, { cookies: [refreshCookie(null)] });
  }),

  'GET /auth/me': route({ whileExpired: true }, async ({ auth }) => accounts.me(auth.companyId, auth.userId)),

  'POST /auth/ws-ticket': route({ whileExpired: true }, async ({ auth }) => ({ ticket: await signWsTicket(auth) })),

  'POST /forgetpassword/{email}': route(
    { public: true, params: ForgetPasswordParams },
    async ({ params, clientAddress }) => {
      await accounts.requestPasswordReset(params.email, clientAddress);
      return { sent: true };
    },
  ),

  'POST /resetpasswords': route({ public: true, body: ResetPasswordBody }, async ({ body, clientAddress }) => {
    await accounts.resetPassword(body.email, body.token, body.password, clientAddress);
    await auditPasswordReset(body.email, clientAddress);
    return { updated: true };
  }),
});
