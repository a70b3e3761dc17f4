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
import {
  METRICS_NAMESPACE,
  METRICS_SERVICE,
  SESSION_UNHEALTHY_MINUTES,
  UNDECRYPTABLE_ALARM_THRESHOLD,
} from '../../session-runner/src/health';
import { access } from '../manifest';
import { bindAppResources, type AppResources } from './app-function';
import { acceptFinding } from './nag';
import { ROOT } from './paths';

/** the port of the runner API peers forward commands to */
const RUNNER_API_PORT = 8090;
/** ECS waits this long after SIGTERM before it kills the runner */
const STOP_TIMEOUT_SECONDS = 120;

export interface SessionRunnerProps {
  resources: AppResources;
  /** queues the runner polls itself (manifest consumer `session-runner`): name -> queue */
  consumes: Map<string, sqs.IQueue>;
  /** where the session health alarm is reported */
  alarms: sns.ITopic;
  /** where the VPC's flow logs go */
  accessLogs: s3.IBucket;
  /** task count bounds (scaled between them); deploys keep at least the minimum running */
  minRunners?: number;
  maxRunners?: number;
  /** the sessions per task autoscaling aims at (context `runnerSessionsTarget`) */
  sessionsPerRunner?: number;
}

export { SESSION_UNHEALTHY_MINUTES };
/**
 * Sessions per task that scaling aims at by default (context `runnerSessionsTarget`). The measured and
 * published figures (docs/benchmarks.md, "Runner memory", "Recommended task size") put a connected
 * session at up to about 5 MB and allow 150 on 2 GiB; 50 stays the default until a staging task with
 * real sessions confirms that figure (its health line: RSS against SessionsHeld).
 */
export const SESSIONS_PER_RUNNER = 50;
/** Minutes the service may run fewer runners than its minimum (a deploy's replacement takes less). */
export const RUNNERS_MISSING_MINUTES = 10;
/** Runner memory (percent of the task's) that raises an alarm: scaling aims at 60, this is a leak or a stuck scale-out. */
export const RUNNER_MEMORY_ALARM_PERCENT = 85;

/**
 * The WhatsApp session runners on Fargate (arm64): a fleet of tasks sharing the sessions through
 * leases in the table (session-runner/src/fleet.ts), scaled on the sessions each holds, replaced
 * by deploys new-before-old (sessions move over by handover). Public subnets without NAT: tasks talk
 * out (WhatsApp and AWS APIs) and accept only their peers' runner API calls.
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
      // 1 vCPU / 2 GiB: Baileys alone takes ~100 MB; a runner holds its share of the sessions
      cpu: 1024,
      memoryLimitMiB: 2048,
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
      environment: {
        AWS_REGION: Stack.of(this).region,
        WHATSAPP_PROVIDER: 'baileys',
        HEALTH_METRICS: 'emf',
        // peers forward commands to the runner holding a session (the address comes from the task metadata)
        RUNNER_API_HOST: '0.0.0.0',
        RUNNER_API_PORT: String(RUNNER_API_PORT),
        // the drain on SIGTERM ends before ECS kills the task
        STOP_TIMEOUT_SECONDS: String(STOP_TIMEOUT_SECONDS - 20),
      },
      portMappings: [{ containerPort: RUNNER_API_PORT }],
      stopTimeout: Duration.seconds(STOP_TIMEOUT_SECONDS),
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

    const minRunners = props.minRunners ?? 2;
    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: minRunners,
      // a deploy starts the new runners before stopping the old: sessions move over by handover
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      // A runner that cannot start fails the deployment instead of hanging it.
      circuitBreaker: { enable: true, rollback: true },
    });

    // runners reach each other's API to forward commands
    this.service.connections.allowFrom(
      this.service.connections,
      ec2.Port.tcp(RUNNER_API_PORT),
      'runner API between runners',
    );
    const scaling = this.service.autoScaleTaskCount({
      minCapacity: minRunners,
      maxCapacity: props.maxRunners ?? 10,
    });
    // sessions per task, from the runners' own health lines (Average over the tasks' lines); memory
    // as a safety net for sessions heavier than the target assumes
    scaling.scaleToTrackCustomMetric('SessionsPerTask', {
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'SessionsHeld',
        dimensionsMap: { Service: METRICS_SERVICE },
        statistic: 'Average',
        period: Duration.minutes(1),
      }),
      targetValue: props.sessionsPerRunner ?? SESSIONS_PER_RUNNER,
      scaleOutCooldown: Duration.minutes(3),
      scaleInCooldown: Duration.minutes(15),
    });
    scaling.scaleOnMemoryUtilization('Memory', { targetUtilizationPercent: 60 });

    // A session held by a runner but not connected (reconnecting) or connected but not answering
    // probes, for a quarter of an hour: the tenant's line is dead. Each runner counts its own such
    // sessions, so the worst runner's count (Maximum) is right however many tasks run.
    new cloudwatch.Alarm(this, 'SessionUnhealthyAlarm', {
      alarmDescription: `A WhatsApp session down or silent for ${SESSION_UNHEALTHY_MINUTES} minutes (session runner health monitor)`,
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'SessionsUnhealthyLong',
        dimensionsMap: { Service: METRICS_SERVICE },
        statistic: 'Maximum',
        period: Duration.minutes(5),
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      // no lines at all means the runner itself is gone: that is the same outage
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarms));

    // A session stopped for good (banned, version refused, logged out on the phone, replaced again
    // and again): it leaves its runner, so the health lines no longer count it; the stop is counted.
    new cloudwatch.Alarm(this, 'SessionsStoppedAlarm', {
      alarmDescription: 'A WhatsApp session was stopped by WhatsApp (see the fleet page for its reason)',
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'SessionsStopped',
        dimensionsMap: { Service: METRICS_SERVICE },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarms));

    // Messages that could not be decrypted: a few are normal (asked again, they arrive), a spike is
    // sessions whose keys went wrong ("waiting for this message" on the customers' phones).
    new cloudwatch.Alarm(this, 'UndecryptableAlarm', {
      alarmDescription: `More than ${UNDECRYPTABLE_ALARM_THRESHOLD} WhatsApp messages could not be decrypted in 5 minutes (see the connections' health)`,
      metric: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'Undecryptable',
        dimensionsMap: { Service: METRICS_SERVICE },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: UNDECRYPTABLE_ALARM_THRESHOLD,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarms));

    // Fewer runners than the minimum for 10 minutes: tasks crash or cannot be placed, and the
    // remaining runners carry every session (Container Insights is on for the cluster).
    new cloudwatch.Alarm(this, 'RunnersMissingAlarm', {
      alarmDescription: `Fewer than ${minRunners} session runners running for ${RUNNERS_MISSING_MINUTES} minutes`,
      metric: new cloudwatch.Metric({
        namespace: 'ECS/ContainerInsights',
        metricName: 'RunningTaskCount',
        dimensionsMap: { ClusterName: cluster.clusterName, ServiceName: this.service.serviceName },
        statistic: 'Minimum',
        period: Duration.minutes(1),
      }),
      threshold: minRunners,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: RUNNERS_MISSING_MINUTES,
      // no task reporting at all is the worst case of the same outage
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarms));

    // Memory high for 10 minutes although scaling aims at 60%: a leak, or scale-out stuck at the maximum.
    new cloudwatch.Alarm(this, 'RunnerMemoryAlarm', {
      alarmDescription: `Session runner memory above ${RUNNER_MEMORY_ALARM_PERCENT}% for 10 minutes`,
      metric: this.service.metricMemoryUtilization({ statistic: 'Average', period: Duration.minutes(5) }),
      threshold: RUNNER_MEMORY_ALARM_PERCENT,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(new actions.SnsAction(props.alarms));
  }
}
