import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

const PACK = 'AwsSolutions';

/**
 * Accepts one cdk-nag AwsSolutions finding on `scope` and everything under it, with the reason it
 * is acceptable. `finding` is a rule (`SMG4`) or one finding of a rule (`IAM5[Resource::...]`, see
 * nagRef()), so an acknowledged wildcard never hides another. The checks run in
 * tests/infra/stack.test.ts; this uses CDK's own acknowledgements, so the stack needs no cdk-nag.
 */
export function acceptFinding(scope: IConstruct, finding: string, reason: string) {
  const id = `${PACK}-${finding}`;
  // A role shared by an access group is bound once per function: record the reason once.
  if (acknowledgedOn(scope).some((entry) => entry.id === id)) return;
  Validations.of(scope).acknowledge({ id, reason });
}

/** The acknowledgements recorded on one construct (not its parents). */
export function acknowledgedOn(scope: IConstruct): { id: string; reason: string }[] {
  return scope.node.metadata
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) =>
      Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
        // CDK files ids without a plugin prefix under `Annotation::`
        id: id.replace(/^annotation::/i, ''),
        reason,
      })),
    );
}

/** A reference to a construct's resource as cdk-nag writes it in a finding: `<LogicalId>` or `<LogicalId.Arn>`. */
export function nagRef(construct: IConstruct, attribute?: string) {
  const resource = (construct.node.defaultChild ?? construct) as CfnElement;
  return `<${Stack.of(construct).getLogicalId(resource)}${attribute ? `.${attribute}` : ''}>`;
}
