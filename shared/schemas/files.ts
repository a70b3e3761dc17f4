import { z } from 'zod';
import { MSG, cursorQuery } from './common';

/**
 * File lists (management.md "Files", 3, 5, 7): a named message with options, each holding one file
 * in S3 under the company's prefix (`path` is the object key). Campaigns send a list's files after
 * their message. The browser uploads a file with POST /uploads (presigned POST) and saves the key as
 * the option's `path`, or sends small files through POST /files/uploadList/{id} (multipart).
 */
export interface FileOption {
  id: number;
  name: string;
  /** object key under `company<id>/`, empty while no file was given */
  path: string;
  mediaType: string;
  /** short-lived download URL (answers only) */
  url?: string;
}

export interface FileList {
  id: number;
  companyId: number;
  name: string;
  message: string;
  userId: number;
  options: FileOption[];
  createdAt: string;
  updatedAt: string;
}

export const FileOptionBody = z.object({
  /** an existing option keeps its id; a new one has none */
  id: z.coerce.number().int().positive().optional(),
  name: z.string().trim().max(500, MSG.long).default(''),
  /** an uploaded object key (POST /uploads), or '' */
  path: z.string().trim().max(1024, MSG.long).optional().nullable(),
  mediaType: z.string().trim().max(200, MSG.long).optional().nullable(),
});

/** File list form (management.md 5): name min 3 required, message required. */
export const FileListBody = z.object({
  name: z.string({ error: MSG.required }).trim().min(3, MSG.short).max(100, MSG.long),
  message: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(4096, MSG.long),
  options: z.array(FileOptionBody).max(20, MSG.long).default([]),
  /** sent by the web app; the server records the caller */
  userId: z.unknown().optional(),
});

export const FilesQuery = cursorQuery.extend({
  searchParam: z.string().trim().toLowerCase().max(100).optional(),
  companyId: z.coerce.number().int().optional(),
});
