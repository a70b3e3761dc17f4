import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queueEnvName } from '../../functions/lib/queue';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '../../session-runner/src/health';
import { access } from '../manifest';
import { bindAppResources, type AppResources } from './app-function';
import { acceptFinding } from './nag';
import { ROOT } from './paths';

export interface SessionRunnerProps {
  resources: AppResources;
  /** queues the runner polls itself (manifest consumer `session-runner`): name -> queue */
  consumes: Map<string, sqs.IQueue>;
  /** where the session health alarm is reported */
  alarms: sns.ITopic;
  /** where the VPC's flow logs go */
  accessLogs: s3.IBucket;
}

/** Minutes a WhatsApp session may stay down or silent before the alarm goes off. */
export const SESSION_UNHEALTHY_MINUTES = 15;

/**
 * The long-running WhatsApp process on Fargate (arm64). It holds sockets, so it runs as exactly
 * one task; deployments stop the old task before starting the new one so two runners never hold
 * the same WhatsApp session. Public subnets without NAT: the task only talks out (WhatsApp and
 * AWS APIs) and accepts no inbound traffic.
 */
export class SessionRunner extends Construct {
  readonly service: ecs.FargateService;
  readonly taskDefinition: ecs.FargateTaskDefinition;

  constructor(scope: Construct, id: string, props: SessionRunnerProps) {
    super(scope, id);
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 }],
      flowLogs: {
        all: { destination: ec2.FlowLogDestination.toS3(props.accessLogs, 'vpc-flow-logs/') },
      },
    });
    const cluster = new ecs.Cluster(this, 'Cluster', {
      vpc,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: 512,
      memoryLimitMiB: 1024,
      runtimePlatform: {
        cpuArchitecture: ecs.CpuArchitecture.ARM64,
        operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
      },
    });
    // Built from the repository root (the runner imports shared/ and functions/lib/); the image is
    // built when the asset is published (cdk deploy), synth only records it.
    const container = this.taskDefinition.addContainer('runner', {
      image: ecs.ContainerImage.fromAsset(ROOT, { file: 'session-runner/Dockerfile', platform: Platform.LINUX_ARM64 }),
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'session-runner',
        logGroup: new logs.LogGroup(this, 'Logs', {
          retention: logs.RetentionDays.ONE_MONTH,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
      }),
      // HEALTH_METRICS=emf: the health monitor's lines become CloudWatch metrics (no SDK, no IAM)
      environment: { AWS_REGION: Stack.of(this).region, WHATSAPP_PROVIDER: 'baileys', HEALTH_METRICS: 'emf' },
    });
    acceptFinding(
      this.taskDefinition,
      'ECS2',
      'The environment holds configuration only (resource names, queue URLs, flags); secrets are read from Secrets Manager at runtime by ARN',
    );
    acceptFinding(
      this.taskDefinition.obtainExecutionRole(),
      'IAM5[Resource::*]',
      'ecr:GetAuthorizationToken, which pulling the image needs and which has no resource-level permissions; the pull itself is limited to the CDK assets repository',
    );
    const taskRole = this.taskDefinition.taskRole;
    bindAppResources(
      (name, value) => container.addEnvironment(name, value),
      taskRole,
      props.resources,
      access.sessionRunner,
    );
    for (const [name, queue] of props.consumes) {
      container.addEnvironment(queueEnvName(name), queue.queueUrl);
      queue.grantConsumeMessages(taskRole);
    }

    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: 1,
      minHealthyPercent: 0,
      maxHealthyPercent: 100,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      // A runner that cannot start fails the deployment instead of hanging it.
      circuitBreaker: { enable: true, rollback: true },
    });

    // A session held by the runner but not connected (reconnecting, stopped by a close code) or
    // connected but not answering probes, for a quarter of an hour: the tenant's line is dead.
    new cloudwatch.Alarm(this, 'SessionUnhealthyAlarm', {
      alarmDescription: `A WhatsApp session down or silent for ${SESSION_UNHEALTHY_MINUTES} minutes (session runner health monitor)`,
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'SessionsUnhealthy',
        dimensionsMap: { Service: METRICS_SERVICE },
        statistic: 'Minimum',
        period: Duration.minutes(5),
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: SESSION_UNHEALTHY_MINUTES / 5,
      // no lines at all means the runner itself is gone: that is the same outage
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarms));
  }
}
