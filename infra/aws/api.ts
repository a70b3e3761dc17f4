import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_PREFIX, splitRouteKey, type HttpModule, type ws as WsHandlers } from '../manifest';
import { functionId, type FunctionRegistry } from './app-function';

/**
 * Stage-wide limits (requests per second, and the burst above it) in front of every function, so
 * a flood costs a 429 at the gateway instead of Lambda concurrency and DynamoDB capacity. The
 * tighter per-path limits on sign-in, password reset, signup and sending are WAF rules (edge.ts).
 */
export const HTTP_THROTTLE = { rateLimit: 200, burstLimit: 400 };
export const WS_THROTTLE = { rateLimit: 100, burstLimit: 200 };

/**
 * Functions that answer requests CloudFront forwards learn where the origin-verify value lives
 * (functions/lib/origin.ts refuses requests without it, i.e. sent to execute-api directly).
 */
function trustCloudFront(fn: lambda.Function, originSecret: secretsmanager.ISecret) {
  fn.addEnvironment('ORIGIN_VERIFY_SECRET_ARN', originSecret.secretArn);
  originSecret.grantRead(fn);
}

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
    // Same origin through CloudFront, so no CORS here. The default stage is declared below to
    // carry the throttle, which HttpApi's own default stage cannot.
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', { description: 'Inbox REST API', createDefaultStage: false });
    new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: HTTP_THROTTLE,
    });
    this.invokeRole = new iam.Role(this, 'InvokeRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
    });
  }

  /** One route per manifest route key, one function (and one integration) per module. */
  mount(modules: HttpModule[], functions: FunctionRegistry, originSecret: secretsmanager.ISecret) {
    for (const mod of modules) {
      const fn = functions.get(`http/${mod.name}`, mod.access ?? 'tenant', {
        memorySize: mod.memory,
        timeoutSeconds: mod.timeoutSeconds,
      });
      trustCloudFront(fn, originSecret);
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
      throttle: WS_THROTTLE,
    });
  }

  mount(handlers: typeof WsHandlers, functions: FunctionRegistry, originSecret: secretsmanager.ISecret) {
    const routes = { $connect: handlers.connect, $disconnect: handlers.disconnect, $default: handlers.default };
    for (const [routeKey, module] of Object.entries(routes)) {
      const fn = functions.get(module, 'ws');
      // Only the handshake carries CloudFront's header; a refused $connect opens no socket.
      if (routeKey === '$connect') trustCloudFront(fn, originSecret);
      const integration = new WebSocketLambdaIntegration(`${functionId(module)}Integration`, fn);
      this.webSocketApi.addRoute(routeKey, { integration });
    }
  }
}
