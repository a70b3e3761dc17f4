import '#lib/startup';
import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { detachSocket } from '#lib/accounts/sessions';
import { removeConnection } from '#lib/realtime';

export async function handler(event: APIGatewayProxyWebsocketEventV2) {
  const connectionId = event.requestContext.connectionId;
  const gone = await removeConnection(connectionId);
  if (gone?.sessionId && gone.userId !== undefined)
    await detachSocket({ companyId: gone.companyId, userId: gone.userId, sessionId: gone.sessionId }, connectionId);
  return { statusCode: 200 };
}
