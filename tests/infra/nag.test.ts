import { App, Stack, type PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { acknowledgedOn } from '../../infra/aws/nag';
import { buildApp } from './build-app';

/**
 * cdk-nag's AwsSolutions pack over both stacks, after synthesis (the tree `cdk synth` validates).
 * A finding is either fixed in infra/aws/ or accepted there, next to its cause, with its reason
 * (acceptFinding() in infra/aws/nag.ts).
 */
function check(props: Parameters<typeof buildApp>[0] = {}) {
  const { app } = buildApp(props);
  app.synth();
  const { violations } = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(app);
  return { app, violations };
}

/** One paragraph per finding: rule (and finding), where, and what cdk-nag says to do. */
const explain = (violations: PolicyViolation[]) =>
  violations
    .map(
      (v) =>
        `${v.ruleName} (${v.severity})\n${v.violatingResources.map((r) => `  at ${r.constructPath}`).join('\n')}\n  ${v.description}`,
    )
    .join('\n\n');

const bySeverity = (violations: PolicyViolation[], severity: string) =>
  violations.filter((v) => v.severity === severity);

describe('cdk-nag AwsSolutions', () => {
  let plain: ReturnType<typeof check>;
  // the optional features an operator turns on with context values
  let configured: ReturnType<typeof check>;

  beforeAll(() => {
    plain = check();
    configured = check({ mailFrom: 'no-reply@example.com', alarmEmail: 'ops@example.com', search: true });
  }, 120_000);

  it('no error is left: every AwsSolutions finding of severity error is fixed or accepted with a reason', () => {
    for (const { violations } of [plain, configured]) {
      const errors = bySeverity(violations, 'error');
      expect(
        errors.map((v) => v.ruleName),
        `unaccepted cdk-nag errors:\n\n${explain(errors)}`,
      ).toEqual([]);
    }
  });

  it('every warning was reviewed: fixed or accepted with a reason', () => {
    for (const { violations } of [plain, configured]) {
      const warnings = bySeverity(violations, 'warning');
      expect(
        warnings.map((v) => v.ruleName),
        `unreviewed cdk-nag warnings:\n\n${explain(warnings)}`,
      ).toEqual([]);
    }
  });

  it('every acceptance names one AwsSolutions rule or finding, on a resource (not a whole stack), with a specific reason', () => {
    // (CDK acknowledges rules of its own CloudFormation validation on stacks)
    const accepted = plain.app.node
      .findAll()
      .flatMap((scope) => acknowledgedOn(scope).map((entry) => ({ ...entry, path: scope.node.path, scope })))
      .filter(({ id }) => id.startsWith('AwsSolutions-'));
    expect(accepted.length).toBeGreaterThan(0);
    for (const { id, reason, path, scope } of accepted) {
      expect(id, path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(reason.trim().length, `reason of ${id} at ${path}: "${reason}"`).toBeGreaterThanOrEqual(20);
      expect(Stack.isStack(scope) || App.isApp(scope), `${id} accepted for all of ${path}`).toBe(false);
    }
    // an IAM wildcard is accepted finding by finding, never the whole rule
    expect(accepted.filter((a) => a.id === 'AwsSolutions-IAM5')).toEqual([]);
  });
});
