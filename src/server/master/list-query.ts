import { propertyMeta, type MasterEntity, type PropertySchema } from '../../shared/master/entity.js';
import { idListSchema, idSchema, pagingProperties } from '../../shared/calls/parts.js';

/** A list's query as the route passes it on: paging, sorting, the search box, the id list, the entity's filters. */
export interface ListQuery {
  page?: number;
  size?: number;
  sort?: string;
  order?: string;
  q?: string;
  id?: number[];
  schoolYearId?: number;
  [filter: string]: unknown;
}

/** The query string a list accepts: paging, sorting, the search box, the entity's filters. */
export function listQuerySchema(entity: MasterEntity) {
  const props = entity.schema.properties;
  const filters: Record<string, PropertySchema> = {};
  for (const f of entity.meta.filters ?? []) {
    const p = props[f];
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type;
    filters[f] = { type, ...(p.enum ? { enum: p.enum } : {}) };
  }
  const sortable = Object.entries(props)
    .filter(([, p]) => !propertyMeta(p).links && !propertyMeta(p).children && !p.writeOnly)
    .map(([k]) => k);
  const yearly = Object.values(props).some((p) => propertyMeta(p).yearly);
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...pagingProperties(1000, true),
      sort: { type: 'string', enum: [...new Set(['id', ...sortable])] },
      order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
      q: { type: 'string', maxLength: 100 },
      id: idListSchema,
      ...(yearly ? { schoolYearId: idSchema } : {}),
      ...filters,
    },
  };
}
