import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { removeConnection } from '#lib/realtime';

export async function handler(event: APIGatewayProxyWebsocketEventV2) {
  await removeConnection(event.requestContext.connectionId);
  return { statusCode: 200 };
}
