import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_PREFIX, splitRouteKey, type HttpModule, type ws as WsHandlers } from '../manifest';
import { functionId, type FunctionRegistry } from './app-function';

/**
 * Lambda proxy integration (payload 2.0) invoked through a role, so no per-function resource
 * policy is needed: one role with one policy serves every module.
 */
class LambdaViaRoleIntegration extends apigwv2.HttpRouteIntegration {
  constructor(
    id: string,
    private readonly fn: lambda.IFunction,
    private readonly role: iam.IRole,
  ) {
    super(id);
  }

  bind(): apigwv2.HttpRouteIntegrationConfig {
    return {
      type: apigwv2.HttpIntegrationType.AWS_PROXY,
      uri: this.fn.functionArn,
      payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
      credentials: apigwv2.IntegrationCredentials.fromRole(this.role),
    };
  }
}

/** The HTTP API; every manifest route is mounted under /api, where CloudFront sends `/api/*`. */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  private readonly invokeRole: iam.Role;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Same origin through CloudFront, so no CORS here.
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', { description: 'Inbox REST API' });
    this.invokeRole = new iam.Role(this, 'InvokeRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
    });
  }

  /** One route per manifest route key, one function (and one integration) per module. */
  mount(modules: HttpModule[], functions: FunctionRegistry) {
    for (const mod of modules) {
      const fn = functions.get(`http/${mod.name}`, { memorySize: mod.memory, timeoutSeconds: mod.timeoutSeconds });
      fn.grantInvoke(this.invokeRole);
      const integration = new LambdaViaRoleIntegration(`${functionId(mod.name)}Integration`, fn, this.invokeRole);
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
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.webSocketApi,
      stageName: 'ws',
      autoDeploy: true,
    });
  }

  mount(handlers: typeof WsHandlers, functions: FunctionRegistry) {
    const routes = { $connect: handlers.connect, $disconnect: handlers.disconnect, $default: handlers.default };
    for (const [routeKey, module] of Object.entries(routes)) {
      const integration = new WebSocketLambdaIntegration(`${functionId(module)}Integration`, functions.get(module));
      this.webSocketApi.addRoute(routeKey, { integration });
    }
  }
}
