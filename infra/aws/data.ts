import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { GSI_NAMES, GSI_PROJECTIONS, TABLE_KEYS, TTL_ATTRIBUTE, gsiKeys } from '../table';
import { acceptFinding } from './nag';

const stringKey = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });

/** Days the access logs (buckets, CloudFront, VPC flow logs) are kept. */
export const ACCESS_LOG_DAYS = 90;

/**
 * What outlives a deployment: the one table (from infra/table.ts, the definition the local runtime
 * also uses), the private media bucket, the access logs and the generated secrets. Table, media and
 * logs are retained when the stack is deleted.
 */
export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly mediaBucket: s3.Bucket;
  /** where the buckets, the distribution and the VPC write their access logs, each under its own prefix */
  readonly accessLogs: s3.Bucket;
  readonly jwtSecret: secretsmanager.Secret;
  readonly dataKeySecret: secretsmanager.Secret;
  readonly adminPasswordSecret: secretsmanager.Secret;
  /** sent by CloudFront to the gateways in a custom header; proves a request came through it */
  readonly originVerifySecret: secretsmanager.Secret;
  /** the Web Push VAPID key pair: created holding no keys, filled once by the seed */
  readonly vapidSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: stringKey(TABLE_KEYS.partitionKey),
      sortKey: stringKey(TABLE_KEYS.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // as infra/table.ts TABLE_STREAM: the search feed reads it (with `search=on`)
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const name of GSI_NAMES) {
      const keys = gsiKeys(name);
      this.table.addGlobalSecondaryIndex({
        indexName: name,
        partitionKey: stringKey(keys.partitionKey),
        sortKey: stringKey(keys.sortKey),
        ...(GSI_PROJECTIONS[name] === 'ALL'
          ? { projectionType: dynamodb.ProjectionType.ALL }
          : { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...GSI_PROJECTIONS[name]] }),
      });
    }

    // CloudFront's standard logs are written with an ACL, so ACLs stay enabled (owner preferred);
    // S3 server access logs and flow logs are granted by the bucket policy. SSE-S3: server access
    // logs cannot be delivered to a KMS-encrypted bucket.
    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(ACCESS_LOG_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acceptFinding(
      this.accessLogs,
      'S1',
      'This is the access-log bucket itself: logging it into itself would log its own log writes without end',
    );

    // The browser uploads straight to this bucket with presigned URLs; CORS is added once the
    // app's origin (the distribution) exists, see allowUploadsFrom().
    this.mediaBucket = new s3.Bucket(this, 'Media', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 's3/media/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.jwtSecret = new secretsmanager.Secret(this, 'JwtSigningKey', {
      description: 'Signing key of the access and refresh JWTs',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.dataKeySecret = new secretsmanager.Secret(this, 'DataKey', {
      description: "Key of the secrets companies store (AI providers' API keys, integration credentials)",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.adminPasswordSecret = new secretsmanager.Secret(this, 'AdminPassword', {
      description: 'Password of the platform super admin created by the seed',
      generateSecretString: { passwordLength: 20, excludePunctuation: true },
    });
    this.originVerifySecret = new secretsmanager.Secret(this, 'OriginVerify', {
      description: 'Value of the header CloudFront adds to API requests; the API refuses requests without it',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    // Only a placeholder until the seed, after the first deployment, writes web-push's generated keys.
    this.vapidSecret = new secretsmanager.Secret(this, 'VapidKeys', {
      description: 'Web Push VAPID key pair ({ publicKey, privateKey }), generated once by the seed',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'placeholder', excludePunctuation: true },
    });

    // None of these can rotate on a schedule without breaking what depends on the current value.
    acceptFinding(
      this.jwtSecret,
      'SMG4',
      'Rotating the JWT signing key on a schedule would sign every user out at once: tokens are verified against the current value only',
    );
    acceptFinding(
      this.dataKeySecret,
      'SMG4',
      'The data key encrypts the secrets companies store; a new value could not decrypt them, so it is changed only with a re-encryption',
    );
    acceptFinding(
      this.adminPasswordSecret,
      'SMG4',
      'The seed reads it only to create the super admin (an existing admin is left alone): rotating the secret would not change any password',
    );
    acceptFinding(
      this.originVerifySecret,
      'SMG4',
      'CloudFront receives the origin-verify value at deployment (dynamic reference); a rotation outside a deployment would make the API refuse CloudFront',
    );
    acceptFinding(
      this.vapidSecret,
      'SMG4',
      'Browsers subscribe with the VAPID public key: new keys would void every push subscription, so they are made once (by the seed) and never rotated on a schedule',
    );
  }

  allowUploadsFrom(origin: string) {
    this.mediaBucket.addCorsRule({
      allowedOrigins: [origin],
      allowedMethods: [s3.HttpMethods.POST, s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
      allowedHeaders: ['*'],
      exposedHeaders: ['ETag'],
      maxAge: 3000,
    });
  }
}
