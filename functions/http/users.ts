import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { LanguageParams, UserCreateBody, UserUpdateBody, UsersQuery } from '#shared/schemas/users';
import { listUsers } from '#lib/accounts/users';
import {
  ADMIN_AREA,
  createCompanyUser,
  deleteCompanyUser,
  listUsersPage,
  requireUser,
  setLanguage,
  updateCompanyUser,
  withQueues,
} from '#lib/users/service';
import { actorOf } from '#lib/audit/actor';

const params = z.object({ id: idParam });

/** Users (attendance.md 2.14, 5, 7). The company always comes from the session, never the query. */
export const handler = httpModule({
  'GET /users': route({ permission: ADMIN_AREA, query: UsersQuery }, async ({ auth, query }) =>
    listUsersPage(auth.companyId, { searchParam: query.searchParam, cursor: query.cursor, limit: query.limit }),
  ),

  'GET /users/list': route({}, async ({ auth }) => listUsers(auth.companyId)),

  'GET /users/{id}': route({ params }, async ({ auth, params }) =>
    withQueues(await requireUser(auth.companyId, params.id)),
  ),

  'POST /users': route({ permission: ADMIN_AREA, body: UserCreateBody }, async ({ auth, body, clientAddress }) =>
    reply(await createCompanyUser(auth, body, actorOf(auth, clientAddress)), 201),
  ),

  'PUT /users/{id}': route({ params, body: UserUpdateBody }, async ({ auth, params, body, clientAddress }) =>
    updateCompanyUser(auth, params.id, body, actorOf(auth, clientAddress)),
  ),

  'DELETE /users/{id}': route({ permission: ADMIN_AREA, params }, async ({ auth, params, clientAddress }) => {
    await deleteCompanyUser(auth, params.id, actorOf(auth, clientAddress));
    return { message: 'User deleted' };
  }),

  'POST /users/set-language/{lang}': route({ params: LanguageParams }, async ({ auth, params }) =>
    setLanguage(auth, params.lang),
  ),
});
