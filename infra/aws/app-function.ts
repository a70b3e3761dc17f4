import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as iam from 'aws-cdk-lib/aws-iam';
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
export function bindAppResources(setEnv: (name: string, value: string) => void, grantee: iam.IGrantable, res: AppResources) {
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
}

/**
 * The one Lambda shape of the app: Node 22 on arm64, bundled by esbuild (ESM, minified, source
 * maps), its own log group, and bound to the app's resources.
 */
export class AppFunction extends NodejsFunction {
  readonly module: string;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      entry: `${ROOT}/functions/${props.module}.ts`,
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: `${ROOT}/package-lock.json`,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 29),
      logGroup,
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
    this.module = props.module;
    bindAppResources((name, value) => this.addEnvironment(name, value), this, props.resources);
  }
}

/** One function per handler module, created on first use, so a module named twice is deployed once. */
export class FunctionRegistry {
  private readonly functions = new Map<string, AppFunction>();

  constructor(
    private readonly scope: Construct,
    private readonly resources: AppResources,
  ) {}

  get(module: string, opts: { memorySize?: number; timeoutSeconds?: number } = {}): AppFunction {
    let fn = this.functions.get(module);
    if (!fn) {
      fn = new AppFunction(this.scope, functionId(module), { module, resources: this.resources, ...opts });
      this.functions.set(module, fn);
    }
    return fn;
  }

  all(): AppFunction[] {
    return [...this.functions.values()];
  }
}

/** `http/auth` -> `HttpAuth`, `jobs/send-message` -> `JobsSendMessage` */
export const functionId = (module: string) =>
  module
    .split(/[/_-]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
