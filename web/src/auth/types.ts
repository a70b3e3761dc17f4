import type { Plan, Setting, User } from '#shared/schemas/accounts';

export type SessionUser = User & {
  company?: { id: number; name: string; dueDate: string | null };
  queues?: { id: number; name: string; color: string }[];
};
export interface SessionCompany {
  id: number;
  name: string;
  dueDate: string | null;
  settings?: Setting[];
  campaignsEnabled?: boolean;
  /** the company's due date has passed: this admin reaches only /financeiro and /subscription */
  restricted?: boolean;
}
export interface SessionPayload {
  token: string;
  user: SessionUser;
  company: SessionCompany;
}
export type { Plan };
