import { NestedStack, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_PREFIX, splitRouteKey, type HttpModule, type ws as WsHandlers } from '../manifest';
import { functionId, type FunctionRegistry } from './app-function';
import { acceptFinding } from './nag';

/**
 * Stage-wide limits (requests per second, and the burst above it) in front of every function, so
 * a flood costs a 429 at the gateway instead of Lambda concurrency and DynamoDB capacity. The
 * tighter per-path limits on sign-in, password reset, signup and sending are WAF rules (edge.ts).
 */
export const HTTP_THROTTLE = { rateLimit: 200, burstLimit: 400 };
export const WS_THROTTLE = { rateLimit: 100, burstLimit: 200 };

/**
 * One JSON line per request. The route template (`POST /api/forgetpassword/{email}`), never the
 * raw path, so no e-mail address or id from a URL lands in the access log.
 */
export const HTTP_ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    time: '$context.requestTime',
    routeKey: '$context.routeKey',
    status: '$context.status',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/** Every route reaches a module function that authenticates it itself (functions/lib/http.ts). */
const AUTHORIZED_IN_FUNCTIONS =
  'Each module function authenticates the JWT and authorizes by session, role, permission and plan (functions/lib/http.ts); public routes (sign-in, signup, password reset, webhooks) are public by design, and only requests carrying the CloudFront origin-verify header are served';

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

/**
 * The HTTP API; every manifest route is mounted under /api, where CloudFront sends `/api/*`.
 * The API, its stage (throttle, access log) and the invoke role are in the app stack; the routes
 * and their integrations, one resource per route key, are in a nested stack of their own, so they
 * do not fill the app stack's 500-resource template limit. The nested stack only refers to the app
 * stack (API id, function ARNs, invoke role ARN, passed in as parameters), never the other way.
 */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  private readonly invokeRole: iam.Role;
  /** where the routes and integrations go: a construct in the nested stack */
  private readonly routes: Construct;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Same origin through CloudFront, so no CORS here. The default stage is declared below to
    // carry the throttle, which HttpApi's own default stage cannot.
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', { description: 'Inbox REST API', createDefaultStage: false });
    const routesStack = new NestedStack(this, 'Routes', { description: 'Inbox: HTTP API routes and integrations' });
    this.routes = new Construct(routesStack, 'HttpApi');
    acceptFinding(this.routes, 'APIG4', AUTHORIZED_IN_FUNCTIONS);
    new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: HTTP_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(
          new logs.LogGroup(this, 'AccessLogs', {
            retention: logs.RetentionDays.ONE_MONTH,
            removalPolicy: RemovalPolicy.DESTROY,
          }),
        ),
        format: HTTP_ACCESS_LOG_FORMAT,
      },
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
      // The integration calls the unqualified ARN; fn.grantInvoke() would add every version (`:*`).
      iam.Grant.addToPrincipal({
        grantee: this.invokeRole,
        actions: ['lambda:InvokeFunction'],
        resourceArns: [fn.functionArn],
      });
      // created beside the module's first route, so in the nested stack too
      const integration = new LambdaViaRoleIntegration(`${functionId(mod.name)}Integration`, fn, this.invokeRole);
      for (const key of mod.routes) {
        const { method, path } = splitRouteKey(key);
        new apigwv2.HttpRoute(this.routes, `${method}${API_PREFIX}${path}`, {
          httpApi: this.httpApi,
          routeKey: apigwv2.HttpRouteKey.with(`${API_PREFIX}${path}`, apigwv2.HttpMethod[method]),
          integration,
        });
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
    acceptFinding(
      this.webSocketApi,
      'APIG4',
      '$connect verifies a single-use ticket from POST /auth/ws-ticket and refuses the socket without one (functions/ws/connect.ts); $disconnect and $default only run on sockets $connect accepted',
    );
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.webSocketApi,
      stageName: 'ws',
      autoDeploy: true,
      throttle: WS_THROTTLE,
    });
    acceptFinding(
      this.stage,
      'APIG1',
      'WebSocket access logs need the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), a per-account singleton this stack must not own; every route is a Lambda whose invocations are in FunctionLogs',
    );
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
