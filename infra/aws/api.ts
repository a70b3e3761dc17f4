import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import { API_PREFIX, splitRouteKey, type HttpModule, type ws as WsHandlers } from '../manifest';
import type { FunctionRegistry } from './app-function';
import { functionId } from './app-function';

/** The HTTP API; every manifest route is mounted under /api, where CloudFront sends `/api/*`. */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Same origin through CloudFront, so no CORS here.
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', { description: 'Inbox REST API' });
  }

  /** One route per manifest route key, one function (and one integration) per module. */
  mount(modules: HttpModule[], functions: FunctionRegistry) {
    for (const mod of modules) {
      const fn = functions.get(`http/${mod.name}`, { memorySize: mod.memory, timeoutSeconds: mod.timeoutSeconds });
      // One API-wide invoke permission per function instead of one per route keeps the stack small.
      const integration = new HttpLambdaIntegration(`${functionId(mod.name)}Integration`, fn, { scopePermissionToRoute: false });
      for (const key of mod.routes) {
        const { method, path } = splitRouteKey(key);
        this.httpApi.addRoutes({ path: `${API_PREFIX}${path}`, methods: [apigwv2.HttpMethod[method]], integration });
      }
    }
  }
}

/**
 * The WebSocket API. Its stage is named `ws` so that CloudFront's `/ws` path reaches it without
 * rewriting; WS_ENDPOINT is the stage's callback URL.
 */
export class Realtime extends Construct {
  readonly webSocketApi: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.webSocketApi = new apigwv2.WebSocketApi(this, 'WebSocketApi', { description: 'Inbox realtime' });
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', { webSocketApi: this.webSocketApi, stageName: 'ws', autoDeploy: true });
  }

  mount(handlers: typeof WsHandlers, functions: FunctionRegistry) {
    const routes = { $connect: handlers.connect, $disconnect: handlers.disconnect, $default: handlers.default };
    for (const [routeKey, module] of Object.entries(routes)) {
      const integration = new WebSocketLambdaIntegration(`${functionId(module)}Integration`, functions.get(module));
      this.webSocketApi.addRoute(routeKey, { integration });
    }
  }
}
