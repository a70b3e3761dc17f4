import { Stack, type StackProps } from 'aws-cdk-lib';
import * as cr from 'aws-cdk-lib/custom-resources';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { API_PREFIX } from '../manifest';
import { acceptFinding } from './nag';

/** CloudFront only accepts web ACLs of scope CLOUDFRONT, which exist only in us-east-1. */
export const EDGE_REGION = 'us-east-1';

/** Requests per client address in a 5-minute window, per rule. */
export const WAF_LIMITS = { signIn: 300, sendApi: 1500 };

/** Paths a script would hammer: guessing passwords and reset codes, mass signups. */
export const SIGN_IN_PATHS = [
  { path: `${API_PREFIX}/auth/`, match: 'STARTS_WITH' },
  { path: `${API_PREFIX}/forgetpassword/`, match: 'STARTS_WITH' },
  { path: `${API_PREFIX}/resetpasswords`, match: 'EXACTLY' },
  { path: `${API_PREFIX}/companies/cadastro`, match: 'EXACTLY' },
] as const;
/** The external sending API, authenticated by a connection token. */
export const SEND_API_PATHS = [{ path: `${API_PREFIX}/messages/send`, match: 'EXACTLY' }] as const;

type PathMatch = { path: string; match: 'STARTS_WITH' | 'EXACTLY' };

const uriMatches = ({ path, match }: PathMatch): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: match,
    searchString: path,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
});

const anyOf = (paths: readonly PathMatch[]): wafv2.CfnWebACL.StatementProperty =>
  paths.length === 1 ? uriMatches(paths[0]!) : { orStatement: { statements: paths.map(uriMatches) } };

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

const rateRule = (name: string, priority: number, limit: number, paths: readonly PathMatch[]) => ({
  name,
  priority,
  action: { block: { customResponse: { responseCode: 429 } } },
  statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit, scopeDownStatement: anyOf(paths) } },
  visibilityConfig: visibility(name),
});

export interface EdgeStackProps extends StackProps {
  /** SSM parameter (in us-east-1) the app stack reads the web ACL's ARN from */
  parameterName: string;
}

/**
 * The WAF in front of the distribution, in its own small stack pinned to us-east-1 so the app
 * stack can stay in any region (and environment-agnostic). Its ARN crosses regions through an SSM
 * parameter, read by webAclArnOf().
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;
  readonly parameterName: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, env: { ...props.env, region: EDGE_REGION } });
    this.parameterName = props.parameterName;
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      description: 'Inbox: per-address rate limits on sign-in and sending, AWS common rules',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('inbox'),
      rules: [
        rateRule('sign-in-rate', 0, WAF_LIMITS.signIn, SIGN_IN_PATHS),
        rateRule('send-api-rate', 1, WAF_LIMITS.sendApi, SEND_API_PATHS),
        {
          name: 'aws-common',
          priority: 2,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // Uploads (media, contact imports) have bodies far above the rule's 8 KB.
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility('aws-common'),
        },
      ],
    });
    new ssm.StringParameter(this, 'WebAclArn', {
      parameterName: props.parameterName,
      stringValue: this.webAcl.attrArn,
      description: 'ARN of the Inbox web ACL, read by the app stack',
    });
  }
}

/** The edge stack's web ACL ARN, read from us-east-1 at deployment (the app stack may be elsewhere). */
export function webAclArnOf(scope: Construct, edge: EdgeStack): string {
  const getParameter = {
    service: 'SSM',
    action: 'getParameter',
    parameters: { Name: edge.parameterName },
    region: EDGE_REGION,
    physicalResourceId: cr.PhysicalResourceId.of(edge.parameterName),
  };
  const read = new cr.AwsCustomResource(scope, 'WebAclArn', {
    onCreate: getParameter,
    onUpdate: getParameter,
    policy: cr.AwsCustomResourcePolicy.fromSdkCalls({
      resources: [
        Stack.of(scope).formatArn({
          service: 'ssm',
          region: EDGE_REGION,
          resource: 'parameter',
          resourceName: edge.parameterName.replace(/^\//, ''),
        }),
      ],
    }),
    installLatestAwsSdk: false,
  });
  // the role of CDK's provider function (one per stack); its own policy is the parameter above only
  if (Construct.isConstruct(read.grantPrincipal))
    acceptFinding(
      read.grantPrincipal,
      'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "CDK's AwsCustomResource provider function: the managed policy only lets it write its own CloudWatch logs",
    );
  return read.getResponseField('Parameter.Value');
}
