/* eslint-disable @typescript-eslint/no-explicit-any -- react-admin's DataProvider is generic over a record type only the caller knows; the server's answers are passed through as they come */
import type { DataProvider, Identifier } from 'react-admin';
import type { Page } from '../../shared/envelope';
import { request } from './http';

/**
 * react-admin's data calls over QE's convention (docs/conventions.md#calls): GET /v1/{resource}
 * (page, size, sort, order, filters) answering {list, total}; GET/PUT/DELETE
 * /v1/{resource}/{id}; POST /v1/{resource}. Errors reach react-admin as HttpError, the
 * field errors of a 422 in body.errors so forms show them on their fields.
 */
const path = (resource: string, id?: Identifier) => `/v1/${resource}${id === undefined ? '' : `/${encodeURIComponent(String(id))}`}`;

const yearQuery = (meta: any) => (meta?.schoolYearId ? { schoolYearId: meta.schoolYearId } : undefined);

export const dataProvider: DataProvider = {
  async getList(resource, { pagination, sort, filter }) {
    const { list, total } = await request<Page<any>>(path(resource), {
      query: { page: pagination?.page, size: pagination?.perPage, sort: sort?.field, order: sort?.order?.toLowerCase(), ...filter },
      ignoreErr: true,
    });
    return { data: list, total };
  },

  // meta.schoolYearId: a record's per-year values (a student's class) of another year than the current one
  async getOne(resource, { id, meta }) {
    return { data: await request<any>(path(resource, id), { query: yearQuery(meta), ignoreErr: true }) };
  },

  async getMany(resource, { ids }) {
    const { list } = await request<Page<any>>(path(resource), { query: { id: ids, size: ids.length || 1 }, ignoreErr: true });
    return { data: list };
  },

  async getManyReference(resource, { target, id, pagination, sort, filter }) {
    const { list, total } = await request<Page<any>>(path(resource), {
      query: { page: pagination.page, size: pagination.perPage, sort: sort.field, order: sort.order.toLowerCase(), ...filter, [target]: id },
      ignoreErr: true,
    });
    return { data: list, total };
  },

  async create(resource, { data, meta }) {
    return { data: await request<any>(path(resource), { method: 'POST', body: data, query: yearQuery(meta), ignoreErr: true }) };
  },

  async update(resource, { id, data, meta }) {
    return { data: await request<any>(path(resource, id), { method: 'PUT', body: data, query: yearQuery(meta), ignoreErr: true }) };
  },

  async updateMany(resource, { ids, data }) {
    for (const id of ids) await request(path(resource, id), { method: 'PUT', body: data, ignoreErr: true });
    return { data: ids };
  },

  // meta.cascade: "delete with all related records", after the user's second confirmation
  async delete(resource, { id, previousData, meta }) {
    await request(path(resource, id), { method: 'DELETE', query: meta?.cascade ? { cascade: 1 } : undefined, ignoreErr: true });
    return { data: previousData as any };
  },

  async deleteMany(resource, { ids }) {
    for (const id of ids) await request(path(resource, id), { method: 'DELETE', ignoreErr: true });
    return { data: ids };
  },
};
