import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Aws, DefaultStackSynthesizer, Duration, Fn, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '../../functions/lib/origin';
import { API_PREFIX } from '../manifest';
import { acceptFinding, nagRef } from './nag';
import { ROOT } from './paths';

/**
 * What the SPA may load. Styles need 'unsafe-inline' because MUI (emotion) injects <style> tags at
 * runtime; scripts come only from the build. 'self' covers wss:// to the same host (CSP 3), which
 * is where /ws lives. Media is shown from presigned URLs of the media bucket: its exact host would
 * close a dependency cycle (the bucket's CORS rule names the distribution), so any bucket of the
 * region is allowed. WhatsApp profile pictures come from *.whatsapp.net, the emoji picker's images
 * from jsDelivr.
 */
export const contentSecurityPolicy = () => {
  const s3 = `https://*.s3.${Aws.REGION}.amazonaws.com`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${s3} https://*.whatsapp.net`,
    `media-src 'self' data: blob: ${s3} https://*.whatsapp.net`,
    `connect-src 'self' ${s3}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
};

/** `https://abc.execute-api.eu-west-1.amazonaws.com` -> `abc.execute-api.eu-west-1.amazonaws.com` */
const endpointHost = (endpoint: string) => Fn.select(2, Fn.split('/', endpoint));

/**
 * Rewrites app routes (`/tickets/12`) to the SPA's index.html at the edge. Done here rather than
 * with distribution error responses, which would also turn the API's own 403/404 into index.html.
 */
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export interface WebProps {
  httpApi: apigwv2.HttpApi;
  webSocketApi: apigwv2.WebSocketApi;
  /** named like the path CloudFront forwards (`/ws`) */
  wsStage: apigwv2.WebSocketStage;
  /** its value goes to the gateways in ORIGIN_VERIFY_HEADER (a dynamic reference, never a literal) */
  originVerifySecret: secretsmanager.ISecret;
  /** WAF web ACL (CLOUDFRONT scope, us-east-1), see edge.ts */
  webAclArn?: string;
  /** where the bucket and the distribution write their access logs */
  accessLogs: s3.IBucket;
}

/**
 * One origin for the browser: CloudFront serves the SPA from a private bucket (OAC), `/api/*` from
 * the HTTP API and `/ws` from the WebSocket API. The SPA's runtime settings are a config.json
 * written at deploy time.
 */
export class Web extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** `https://<distribution domain>` */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 's3/web/',
      // Only build output lives here; it is redeployed from web/dist.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Inbox: HSTS, CSP, no framing, no sniffing',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy(), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });
    // Nothing from the gateways is cached; every viewer header but Host, all cookies and query
    // strings reach them (Host must be the gateway's own), plus the origin-verify header.
    const passThrough = {
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      responseHeadersPolicy,
    };
    const gateway = (endpoint: string) =>
      new origins.HttpOrigin(endpointHost(endpoint), {
        customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originVerifySecret.secretValue.unsafeUnwrap() },
      });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Inbox web app, API and realtime',
      webAclId: props.webAclArn,
      defaultRootObject: 'index.html',
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      // cookies carry the refresh token
      logIncludesCookies: false,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'SpaRewrite', {
              code: cloudfront.FunctionCode.fromInline(SPA_REWRITE),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
            }),
          },
        ],
      },
      additionalBehaviors: {
        [`${API_PREFIX}/*`]: {
          origin: gateway(props.httpApi.apiEndpoint),
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          ...passThrough,
        },
        [`/${props.wsStage.stageName}`]: {
          origin: gateway(props.webSocketApi.apiEndpoint),
          ...passThrough,
        },
      },
    });
    acceptFinding(
      this.distribution,
      'CFR4',
      'Served on the default *.cloudfront.net certificate, whose minimum protocol CloudFront fixes at TLSv1; raising it to TLSv1.2_2021 needs a custom domain with an ACM certificate',
    );
    acceptFinding(
      this.distribution,
      'CFR1',
      'Companies and their attendants may be anywhere; the WAF (edge.ts) rate-limits abuse instead of blocking countries',
    );
    this.origin = `https://${this.distribution.distributionDomainName}`;
    this.deploy();
  }

  /**
   * Hashed assets are cached for a year; index.html and config.json are revalidated on every load.
   * Without a build (web/dist missing) only config.json is deployed, so synth works before a build.
   */
  private deploy() {
    const dist = join(ROOT, 'web', 'dist');
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const config = s3deploy.Source.jsonData('config.json', {
      apiUrl: API_PREFIX,
      wsUrl: `wss://${this.distribution.distributionDomainName}/ws`,
      version,
    });

    const built = existsSync(join(dist, 'index.html'));
    let assets: s3deploy.BucketDeployment | undefined;
    if (built && existsSync(join(dist, 'assets'))) {
      assets = new s3deploy.BucketDeployment(this, 'Assets', {
        sources: [s3deploy.Source.asset(join(dist, 'assets'))],
        destinationBucket: this.bucket,
        destinationKeyPrefix: 'assets/',
        cacheControl: [
          s3deploy.CacheControl.setPublic(),
          s3deploy.CacheControl.maxAge(Duration.days(365)),
          s3deploy.CacheControl.immutable(),
        ],
        // Old hashed files stay, so tabs opened before a deployment keep loading their chunks.
        prune: false,
        memoryLimit: 512,
      });
    }
    const shell = new s3deploy.BucketDeployment(this, 'Shell', {
      sources: built ? [s3deploy.Source.asset(dist, { exclude: ['assets', 'assets/**'] }), config] : [config],
      destinationBucket: this.bucket,
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: false,
      memoryLimit: 512,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    // A new index.html must never point at chunks not uploaded yet.
    if (assets) shell.node.addDependency(assets);
    this.acceptDeploymentHandler(shell);
  }

  /**
   * The upload function is CDK's own (one per stack, shared by both deployments): its runtime and
   * its rights are the construct's, not ours to narrow.
   */
  private acceptDeploymentHandler(deployment: s3deploy.BucketDeployment) {
    const handler = deployment.handlerRole.node.scope!;
    const cdkOwned = 'CDK BucketDeployment handler (its singleton Lambda, shared by both deployments)';
    acceptFinding(
      handler,
      'L1',
      `${cdkOwned}: CDK pins the Python runtime of its handler; it is updated with aws-cdk-lib`,
    );
    acceptFinding(
      handler,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      `${cdkOwned}: the managed policy only lets it write its own CloudWatch logs`,
    );
    const readsAsset = `${cdkOwned}: reads the uploaded build from the CDK bootstrap assets bucket, with CDK's read grant`;
    for (const action of ['s3:GetBucket*', 's3:GetObject*', 's3:List*'])
      acceptFinding(handler, `IAM5[Action::${action}]`, readsAsset);
    const qualifier =
      this.node.tryGetContext('@aws-cdk/core:bootstrapQualifier') ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const assetsBucket = `arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>`;
    acceptFinding(handler, `IAM5[Resource::${assetsBucket}/*]`, readsAsset);
    const writesSite = `${cdkOwned}: copies the build into the web bucket and replaces its objects, with CDK's read/write grant on that bucket only`;
    for (const action of ['s3:Abort*', 's3:DeleteObject*'])
      acceptFinding(handler, `IAM5[Action::${action}]`, writesSite);
    acceptFinding(handler, `IAM5[Resource::${nagRef(this.bucket, 'Arn')}/*]`, writesSite);
    acceptFinding(
      handler,
      'IAM5[Resource::*]',
      `${cdkOwned}: cloudfront:CreateInvalidation/GetInvalidation, which CDK grants on * to invalidate the distribution after an upload`,
    );
  }
}
