import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueEnvName } from '../../functions/lib/queue';
import { access, type Access, type AccessGroup } from '../manifest';
import { GSI_NAMES } from '../table';
import { acceptFinding, nagRef } from './nag';
import { ROOT } from './paths';

/** What every server process (Lambda or the Fargate session runner) may be bound to. */
export interface AppResources {
  table: dynamodb.ITable;
  mediaBucket: s3.IBucket;
  /** manifest queue name -> queue */
  queues: Map<string, sqs.IQueue>;
  wsStage: apigwv2.WebSocketStage;
  jwtSecret: secretsmanager.ISecret;
  dataKeySecret: secretsmanager.ISecret;
  /** the Web Push VAPID key pair (filled by the seed) */
  vapidSecret: secretsmanager.ISecret;
  /** https://<distribution domain>: cookies, CORS and links in e-mails */
  appOrigin: string;
  /** sender address verified in SES (context `mailFrom`); without it no mail is sent */
  mailFrom?: string;
  /** the search domain (context `search=on`); without it search is off (SEARCH=off) */
  search?: { domain: opensearch.IDomain; index: string };
}

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** Every object key starts with the tenant prefix (`company<id>/`, functions/lib/storage.ts). */
const TENANT_OBJECTS = 'company*';
const MEDIA_OBJECT_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];

/**
 * Sets the environment functions/lib/config.ts reads and grants the access group's rights, each
 * variable and its grant in one step, so a process never gets a name it cannot use. Shared by the
 * Lambda functions and the session runner's task. Table and bucket names are always set, since
 * config.ts requires both; what the process may do with them is the group's.
 */
export function bindAppResources(
  setEnv: (name: string, value: string) => void,
  grantee: iam.IGrantable,
  res: AppResources,
  access: Access,
) {
  setEnv('TABLE_NAME', res.table.tableName);
  // The table and each of its indexes by name (table.grant() would add `index/*`).
  iam.Grant.addToPrincipal({
    grantee,
    actions: [...TABLE_READ, ...(access.table === 'readwrite' ? TABLE_WRITE : [])],
    resourceArns: [res.table.tableArn, ...GSI_NAMES.map((name) => `${res.table.tableArn}/index/${name}`)],
  });

  setEnv('MEDIA_BUCKET', res.mediaBucket.bucketName);
  if (access.media) {
    iam.Grant.addToPrincipal({
      grantee,
      actions: MEDIA_OBJECT_ACTIONS,
      resourceArns: [res.mediaBucket.arnForObjects(TENANT_OBJECTS)],
    });
    acceptOnRole(
      grantee,
      `IAM5[Resource::${nagRef(res.mediaBucket, 'Arn')}/${TENANT_OBJECTS}]`,
      'Object keys start with the tenant prefix (company<id>/, functions/lib/storage.ts) and are known only per request; the grant is limited to those keys',
    );
    // Without it a missing object is a 403 instead of NoSuchKey (functions/lib/storage.ts).
    iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [res.mediaBucket.bucketArn] });
  }

  for (const name of access.sendsTo ?? []) {
    const queue = res.queues.get(name);
    if (!queue) throw new Error(`access names queue ${name}, which the manifest does not declare`);
    setEnv(queueEnvName(name), queue.queueUrl);
    queue.grantSendMessages(grantee);
  }

  if (access.queueAdmin) {
    for (const [name, queue] of res.queues) {
      const deadLetters = queue instanceof sqs.Queue ? queue.deadLetterQueue?.queue : undefined;
      if (!deadLetters) continue;
      setEnv(queueEnvName(name), queue.queueUrl);
      setEnv(`DLQ_URL_${name.toUpperCase().replace(/-/g, '_')}`, deadLetters.queueUrl);
      // depths, and SQS's own redrive (StartMessageMoveTask reads the dead letters and sends them back)
      iam.Grant.addToPrincipal({ grantee, actions: ['sqs:GetQueueAttributes'], resourceArns: [queue.queueArn] });
      queue.grantSendMessages(grantee);
      iam.Grant.addToPrincipal({
        grantee,
        actions: ['sqs:GetQueueAttributes', 'sqs:StartMessageMoveTask', 'sqs:ReceiveMessage', 'sqs:DeleteMessage'],
        resourceArns: [deadLetters.queueArn],
      });
    }
  }

  if (access.realtime) {
    setEnv('WS_ENDPOINT', res.wsStage.callbackUrl);
    res.wsStage.grantManagementApiAccess(grantee);
    acceptOnRole(
      grantee,
      `IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:${nagRef(res.wsStage.api)}/${res.wsStage.stageName}/*/@connections/*]`,
      "Posting to a socket names its connection id, created at runtime: the grant is this stage's @connections/* and nothing else of the API",
    );
  }

  if (access.jwt) {
    setEnv('JWT_SECRET_ARN', res.jwtSecret.secretArn);
    res.jwtSecret.grantRead(grantee);
  }

  if (access.dataKey) {
    setEnv('DATA_KEY_SECRET_ARN', res.dataKeySecret.secretArn);
    res.dataKeySecret.grantRead(grantee);
  }

  if (access.vapid) {
    setEnv('VAPID_SECRET_ARN', res.vapidSecret.secretArn);
    res.vapidSecret.grantRead(grantee);
    if (access.vapid === 'write') res.vapidSecret.grantWrite(grantee);
  }

  if (access.search) {
    if (res.search) {
      const { domain, index } = res.search;
      setEnv('SEARCH_ENDPOINT', `https://${domain.domainEndpoint}`);
      setEnv('SEARCH_INDEX', index);
      // read: search (a POST) and the index check; write: also bulk, update/delete by query, create the index
      iam.Grant.addToPrincipal({
        grantee,
        actions: [
          'es:ESHttpGet',
          'es:ESHttpPost',
          ...(access.search === 'write' ? ['es:ESHttpPut', 'es:ESHttpDelete'] : []),
        ],
        resourceArns: [`${domain.domainArn}/*`],
      });
      acceptOnRole(
        grantee,
        `IAM5[Resource::${nagRef(domain, 'Arn')}/*]`,
        'OpenSearch authorizes HTTP calls by path under the domain (/_bulk, /<index>/_search, /_cat/indices): the grant is this one domain',
      );
    } else setEnv('SEARCH', 'off');
  }

  if (access.mail && res.mailFrom) {
    setEnv('MAIL_FROM', res.mailFrom);
    grantSendMail(grantee, res.table, res.mailFrom);
  }

  setEnv('APP_ORIGIN', res.appOrigin);
  setEnv('LOG_LEVEL', 'info');
}

/** Accepts a finding on the role a grant lands on (shared by an access group, or the runner's task role). */
function acceptOnRole(grantee: iam.IGrantable, finding: string, reason: string) {
  if (Construct.isConstruct(grantee.grantPrincipal)) acceptFinding(grantee.grantPrincipal, finding, reason);
}

/** SES authorizes a sender by its address identity or its domain identity, whichever is verified. */
function grantSendMail(grantee: iam.IGrantable, scope: Construct, mailFrom: string) {
  const stack = Stack.of(scope);
  const identity = (name: string) =>
    stack.formatArn({
      service: 'ses',
      resource: 'identity',
      resourceName: name,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  iam.Grant.addToPrincipal({
    grantee,
    actions: ['ses:SendEmail', 'ses:SendRawEmail'],
    resourceArns: [identity(mailFrom), identity(mailFrom.slice(mailFrom.indexOf('@') + 1))],
  });
}

export interface AppFunctionProps {
  /** handler module under functions/ without extension, e.g. `http/auth` or `jobs/seed` */
  module: string;
  resources: AppResources;
  access: Access;
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
    bindAppResources((name, value) => this.addEnvironment(name, value), this, props.resources, props.access);
    acceptFinding(
      this,
      'L1',
      'Node 22 is the one runtime of the server code: the esbuild targets (here and build:runner), the session runner image (node:22) and the README move to Node 24 together, in one change',
    );
  }
}

/**
 * One function per handler module, created on first use, so a module named twice is deployed once.
 * The functions of one access group (infra/manifest.ts) share one execution role, holding exactly
 * the group's rights; all share one log group (Lambda names each stream after its function). A
 * role, policy and log group per function would cost three CloudFormation resources each against
 * the stack's limit of 500.
 */
export class FunctionRegistry {
  private readonly functions = new Map<string, { fn: AppFunction; group: AccessGroup }>();
  private readonly roles = new Map<AccessGroup, iam.Role>();
  readonly logGroup: logs.LogGroup;
  /** writing to logGroup, what every execution role needs instead of AWSLambdaBasicExecutionRole (logs on `*`) */
  private readonly logWriter: iam.ManagedPolicy;

  constructor(
    private readonly scope: Construct,
    private readonly resources: AppResources,
  ) {
    this.logGroup = new logs.LogGroup(scope, 'FunctionLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.logWriter = new iam.ManagedPolicy(scope, 'FunctionLogsWrite', {
      description: 'Inbox functions: write to their log group',
      statements: [
        new iam.PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [this.logGroup.logGroupArn],
        }),
      ],
    });
  }

  /** The execution role of an access group. */
  role(group: AccessGroup): iam.Role {
    let role = this.roles.get(group);
    if (!role) {
      role = new iam.Role(this.scope, `FunctionRole${functionId(group)}`, {
        description: `Inbox functions, access group ${group}`,
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        managedPolicies: [this.logWriter],
      });
      this.roles.set(group, role);
    }
    return role;
  }

  get(module: string, group: AccessGroup, opts: { memorySize?: number; timeoutSeconds?: number } = {}): AppFunction {
    const known = this.functions.get(module);
    if (known) {
      if (known.group !== group) throw new Error(`${module} is in access groups ${known.group} and ${group}`);
      return known.fn;
    }
    const fn = new AppFunction(this.scope, functionId(module), {
      module,
      resources: this.resources,
      access: access[group],
      role: this.role(group),
      logGroup: this.logGroup,
      ...opts,
    });
    this.functions.set(module, { fn, group });
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
