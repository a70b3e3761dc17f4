import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { queueEnvName } from '../../functions/lib/queue';
import { ROOT } from './paths';

/** What every server process (Lambda or the Fargate session runner) is bound to. */
export interface AppResources {
  table: dynamodb.ITable;
  mediaBucket: s3.IBucket;
  /** manifest queue name -> queue */
  queues: Map<string, sqs.IQueue>;
  wsStage: apigwv2.WebSocketStage;
  jwtSecret: secretsmanager.ISecret;
  /** https://<distribution domain>: cookies, CORS and links in e-mails */
  appOrigin: string;
}

/**
 * Sets the environment functions/lib/config.ts reads and grants the matching access, each variable
 * and its grant in one step, so a process never gets a name it cannot use. Shared by the Lambda
 * functions and the session runner's task.
 */
export function bindAppResources(
  setEnv: (name: string, value: string) => void,
  grantee: iam.IGrantable,
  res: AppResources,
) {
  setEnv('TABLE_NAME', res.table.tableName);
  res.table.grantReadWriteData(grantee);

  setEnv('MEDIA_BUCKET', res.mediaBucket.bucketName);
  res.mediaBucket.grantReadWrite(grantee);

  for (const [name, queue] of res.queues) {
    setEnv(queueEnvName(name), queue.queueUrl);
    queue.grantSendMessages(grantee);
  }

  setEnv('WS_ENDPOINT', res.wsStage.callbackUrl);
  res.wsStage.grantManagementApiAccess(grantee);

  setEnv('JWT_SECRET_ARN', res.jwtSecret.secretArn);
  res.jwtSecret.grantRead(grantee);

  setEnv('APP_ORIGIN', res.appOrigin);
  setEnv('LOG_LEVEL', 'info');
}

export interface AppFunctionProps {
  /** handler module under functions/ without extension, e.g. `http/auth` or `jobs/seed` */
  module: string;
  resources: AppResources;
  memorySize?: number;
  timeoutSeconds?: number;
  /** execution role; omitted: a role of its own */
  role?: iam.IRole;
  logGroup: logs.ILogGroup;
}

/**
 * The one Lambda shape of the app: Node 22 on arm64, bundled by esbuild (ESM, minified, source
 * maps), bound to the app's resources.
 */
export class AppFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id, {
      entry: `${ROOT}/functions/${props.module}.ts`,
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: `${ROOT}/package-lock.json`,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 29),
      logGroup: props.logGroup,
      role: props.role,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        mainFields: ['module', 'main'],
        // Bundle the AWS SDK too: the versions the tests ran against, not the runtime's.
        externalModules: [],
        // CommonJS dependencies inside an ESM bundle still call require().
        banner: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);",
      },
    });
    bindAppResources((name, value) => this.addEnvironment(name, value), this, props.resources);
  }
}

/**
 * One function per handler module, created on first use, so a module named twice is deployed once.
 * The app's functions share one execution role and one log group (Lambda names each stream after
 * its function): they are bound to the same resources anyway, and a role, policy and log group per
 * function would cost three CloudFormation resources each against the stack's limit of 500.
 * Functions that need more (the seed's admin secret) get a role of their own.
 */
export class FunctionRegistry {
  private readonly functions = new Map<string, AppFunction>();
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(
    private readonly scope: Construct,
    private readonly resources: AppResources,
  ) {
    this.role = new iam.Role(scope, 'FunctionRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    this.logGroup = new logs.LogGroup(scope, 'FunctionLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }

  get(module: string, opts: { memorySize?: number; timeoutSeconds?: number } = {}): AppFunction {
    let fn = this.functions.get(module);
    if (!fn) {
      fn = new AppFunction(this.scope, functionId(module), {
        module,
        resources: this.resources,
        role: this.role,
        logGroup: this.logGroup,
        ...opts,
      });
      this.functions.set(module, fn);
    }
    return fn;
  }
}

/** `http/auth` -> `HttpAuth`, `jobs/send-message` -> `JobsSendMessage` */
export const functionId = (module: string) =>
  module
    .split(/[/_-]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
