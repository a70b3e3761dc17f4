import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StreamConsumerDef } from '../manifest';
import type { FunctionRegistry } from './app-function';
import { acceptFinding } from './nag';

/** The one index of every company's messages and notes (functions/lib/search/opensearch.ts). */
export const SEARCH_INDEX = 'messages';
/** The smallest domain (docs/search.md has its monthly cost): one t3.small.search node, 10 GB gp3. */
export const SEARCH_INSTANCE_TYPE = 't3.small.search';
export const SEARCH_VOLUME_GB = 10;

/** Sort keys of the items the search feed reads (functions/lib/search/feed.ts kindOf): messages, notes, tickets. */
const FED_SORT_KEYS = ['M#', 'N#', 'TICKET#'];

/**
 * Full-text search on AWS, deployed with the context value `search=on`: an OpenSearch Service
 * domain, and the table's stream feeding it through the manifest's stream consumers (a Lambda that
 * sees only messages, notes and tickets, by event filter; failed batches are halved and retried,
 * then recorded in a dead-letter queue with an alarm). Access is IAM only (SigV4): the domain's policy
 * names the search access groups' roles, and each role's own policy limits what it may call.
 */
export class Search extends Construct {
  readonly domain: opensearch.Domain;
  /** named, so its resource policy can name it without referring to the domain itself */
  readonly domainName: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.domainName = `${Stack.of(this)
      .stackName.toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')}-search`.slice(0, 28);
    this.domain = new opensearch.Domain(this, 'Domain', {
      domainName: this.domainName,
      version: opensearch.EngineVersion.OPENSEARCH_2_19,
      capacity: { dataNodes: 1, dataNodeInstanceType: SEARCH_INSTANCE_TYPE, multiAzWithStandbyEnabled: false },
      ebs: { volumeSize: SEARCH_VOLUME_GB, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      zoneAwareness: { enabled: false },
      enforceHttps: true,
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2,
      nodeToNodeEncryption: true,
      encryptionAtRest: { enabled: true },
      // the index is derived data: `npm run reindex` rebuilds it from the table
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acceptFinding(
      this.domain,
      'OS1',
      'The Lambda functions run outside a VPC (no NAT to pay for); the domain accepts only SigV4-signed requests of the roles granted es:ESHttp* on it',
    );
    acceptFinding(
      this.domain,
      'OS3',
      'Access is by IAM identity (SigV4) rather than by source address: Lambda has no fixed addresses outside a VPC',
    );
    acceptFinding(
      this.domain,
      'OS4',
      'The smallest setup is one data node; dedicated masters (three more instances) are for clusters of several data nodes',
    );
    acceptFinding(
      this.domain,
      'OS7',
      'One data node cannot span zones; the index is derived from the table and rebuilt by the reindex command if the node is lost',
    );
    for (const log of ['SEARCH_SLOW_LOGS', 'INDEX_SLOW_LOGS'])
      acceptFinding(
        this.domain,
        `OS9[LogExport::${log}]`,
        'Slow-log publishing needs a CloudWatch resource policy (a custom resource) and costs per GB; turn it on while tuning queries',
      );
  }

  /**
   * The domain's resource policy: only these roles (the search access groups' execution roles),
   * signed; each role's own policy then says which calls it may make (infra/aws/app-function.ts).
   */
  allow(roles: iam.IRole[]) {
    const cfn = this.domain.node.defaultChild as opensearch.CfnDomain;
    cfn.accessPolicies = new iam.PolicyDocument({
      statements: [
        new iam.PolicyStatement({
          principals: roles.map((r) => new iam.ArnPrincipal(r.roleArn)),
          actions: ['es:ESHttpGet', 'es:ESHttpPost', 'es:ESHttpPut', 'es:ESHttpDelete'],
          resources: [
            Stack.of(this).formatArn({
              service: 'es',
              resource: 'domain',
              resourceName: `${this.domainName}/*`,
              arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
            }),
          ],
        }),
      ],
    }).toJSON();
  }

  /** Attaches the stream consumers (the search feed) to the table's stream. */
  feed(table: dynamodb.ITable, defs: StreamConsumerDef[], functions: FunctionRegistry, alarms: sns.ITopic) {
    for (const def of defs) {
      const failed = new sqs.Queue(this, `${def.name}-failed`, {
        retentionPeriod: Duration.days(14),
        enforceSSL: true,
      });
      acceptFinding(
        failed,
        'SQS3',
        'This queue is itself where failed stream batches are recorded (their positions in the stream)',
      );
      const fn = functions.get(def.handler, def.access, { timeoutSeconds: 60 });
      acceptFinding(
        functions.role(def.access),
        'IAM5[Resource::*]',
        "dynamodb:ListStreams, which Lambda's stream poller calls, has no resource-level permissions (AWS requires *); the stream reads are on this table's stream only",
      );
      fn.addEventSource(
        new DynamoEventSource(table, {
          startingPosition: lambda.StartingPosition.TRIM_HORIZON,
          batchSize: def.batchSize,
          maxBatchingWindow: Duration.seconds(def.batchingWindowSeconds),
          bisectBatchOnError: true,
          retryAttempts: 10,
          onFailure: new SqsDlq(failed),
          filters: FED_SORT_KEYS.map((prefix) =>
            lambda.FilterCriteria.filter({ dynamodb: { Keys: { sk: { S: lambda.FilterRule.beginsWith(prefix) } } } }),
          ),
        }),
      );
      new cloudwatch.Alarm(this, `${def.name}-failed-alarm`, {
        alarmDescription: `Stream batches ${def.name} gave up on (reindex to recover)`,
        metric: failed.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(new actions.SnsAction(alarms));
    }
  }
}
