/**
 * The object model the twins pass around: just enough of metav1.ObjectMeta, v1.Pod, v1.Node and
 * apps/v1.ReplicaSet for the machinery to be real (keys, resource versions, labels, owner
 * references, requests, taints, affinity), and the key functions client-go's cache is built on.
 *
 * Mirrors k8s.io/client-go/tools/cache/store.go and controller.go (key functions,
 * DeletedFinalStateUnknown) at client-go v0.24, and the shapes of k8s.io/api v0.24.
 * Left out: the type system of runtime.Object (kinds are plain strings), quantities (cpu is in
 * millicores and memory in bytes, as integers), and every field no twin reads.
 * Objects are treated as immutable, as client-go asks of anything read from a cache: writers
 * build new objects.
 */

export interface OwnerReference {
  kind: string;
  name: string;
  uid: string;
  /** True on the one owner that manages the object (the "controller reference"). */
  controller?: boolean;
}

export interface ObjectMeta {
  /** Empty for cluster-scoped objects such as Nodes. */
  namespace: string;
  name: string;
  uid: string;
  /** The etcd revision of the last write, as a decimal string (opaque to clients). */
  resourceVersion: string;
  generation: number;
  labels: Readonly<Record<string, string>>;
  ownerReferences?: readonly OwnerReference[];
  /** Virtual ms at which deletion was requested, when it has been. */
  deletionTimestamp?: number;
  creationTimestamp: number;
}

export interface KubeObject<Spec = object, Status = object> {
  kind: string;
  metadata: ObjectMeta;
  spec: Spec;
  status: Status;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: readonly string[];
}

export interface LabelSelector {
  matchLabels?: Readonly<Record<string, string>>;
  matchExpressions?: readonly LabelSelectorRequirement[];
}

export interface Resources {
  /** Millicores. */
  cpu: number;
  /** Bytes. */
  memory: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: readonly string[];
}

export interface NodeSelectorTerm {
  matchExpressions: readonly NodeSelectorRequirement[];
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: {
    nodeSelectorTerms: readonly NodeSelectorTerm[];
  };
  preferredDuringSchedulingIgnoredDuringExecution?: readonly {
    weight: number;
    preference: NodeSelectorTerm;
  }[];
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  priority?: number;
  /** The sum of the containers' requests (the twins have one container per pod). */
  requests?: Resources;
  nodeSelector?: Readonly<Record<string, string>>;
  affinity?: { nodeAffinity?: NodeAffinity };
  tolerations?: readonly Toleration[];
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  /** Set by the scheduler when a pod cannot be placed. */
  reason?: string;
  message?: string;
}

export interface NodeSpec {
  taints?: readonly Taint[];
  unschedulable?: boolean;
}

export interface NodeStatus {
  allocatable: Resources & { pods: number };
}

export interface ReplicaSetSpec {
  replicas: number;
  selector: LabelSelector;
  template: { labels: Readonly<Record<string, string>>; spec: PodSpec };
}

export interface ReplicaSetStatus {
  replicas: number;
  observedGeneration: number;
}

export type Pod = KubeObject<PodSpec, PodStatus>;
export type Node = KubeObject<NodeSpec, NodeStatus>;
export type ReplicaSet = KubeObject<ReplicaSetSpec, ReplicaSetStatus>;

/**
 * The marker a DeltaFIFO puts in place of an object whose deletion was noticed only by a relist:
 * the final state is unknown, `obj` is the last state the cache had (possibly stale).
 * @mirrors k8s.io/client-go/tools/cache.DeletedFinalStateUnknown
 */
export class DeletedFinalStateUnknown {
  constructor(
    readonly key: string,
    readonly obj: KubeObject | undefined,
  ) {}
}

/** Anything a cache can hold: an object or a tombstone for one. */
export type CacheEntry = KubeObject | DeletedFinalStateUnknown;

/**
 * `namespace/name`, or `name` for cluster-scoped objects.
 * @mirrors k8s.io/client-go/tools/cache.MetaNamespaceKeyFunc
 */
export function metaNamespaceKeyFunc(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * The key function informers use: a tombstone keeps the key of the object it stands for.
 * @mirrors k8s.io/client-go/tools/cache.DeletionHandlingMetaNamespaceKeyFunc
 */
export function deletionHandlingMetaNamespaceKeyFunc(obj: CacheEntry): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  return metaNamespaceKeyFunc(obj);
}

/**
 * @mirrors k8s.io/client-go/tools/cache.SplitMetaNamespaceKey
 */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0]! };
  if (parts.length === 2) return { namespace: parts[0]!, name: parts[1]! };
  throw new Error(`unexpected key format: ${JSON.stringify(key)}`);
}

/**
 * The owner reference with `controller: true`, if any.
 * @mirrors k8s.io/apimachinery/pkg/apis/meta/v1.GetControllerOf
 */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

/**
 * Whether `labels` satisfy `selector` (every matchLabels pair and every expression). An empty
 * selector matches everything, as `metav1.LabelSelectorAsSelector` makes it.
 * @mirrors k8s.io/apimachinery/pkg/apis/meta/v1.LabelSelectorAsSelector
 * @mirrors (k8s.io/apimachinery/pkg/labels.internalSelector).Matches
 */
export function selectorMatches(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>>,
): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  for (const req of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, req.key);
    const value = labels[req.key];
    switch (req.operator) {
      case 'In':
        if (!has || !(req.values ?? []).includes(value!)) return false;
        break;
      case 'NotIn':
        if (has && (req.values ?? []).includes(value!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
    }
  }
  return true;
}

/**
 * A short description of an object for timelines, as klog.KObj is for log lines: `Pod default/web-1 rv=7`.
 * @mirrors k8s.io/klog/v2.KObj
 */
export function describeObject(obj: CacheEntry | undefined): string {
  if (obj === undefined) return '<nil>';
  if (obj instanceof DeletedFinalStateUnknown) return `DeletedFinalStateUnknown{${obj.key}}`;
  return `${obj.kind} ${metaNamespaceKeyFunc(obj)} rv=${obj.metadata.resourceVersion}`;
}
