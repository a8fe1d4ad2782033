/**
 * The scheduler's cache: which pods run (or are assumed to run) on which node. "Assume" is what
 * lets scheduling go on while a binding is in flight: the pod counts against its node at once;
 * the informer's later Add confirms it; a failed binding forgets it.
 *
 * Mirrors pkg/scheduler/internal/cache/{cache.go,snapshot.go} at Kubernetes v1.24: AssumePod,
 * FinishBinding, ForgetPod, AddPod (confirming an assumed pod, or adding one bound elsewhere),
 * UpdatePod, RemovePod, AddNode/UpdateNode/RemoveNode, UpdateSnapshot and the Snapshot's list
 * and map of NodeInfos.
 * Left out: the expiry of assumed pods whose binding finished but never showed up (15 minutes),
 * image states, the most-recently-updated node list, and NodeInfo cloning: a scheduling cycle runs
 * as one uninterrupted task here, so the snapshot can share the cache's NodeInfos; it copies only
 * the list, and only when nodes come or go.
 */
import type { Node, Pod } from '../objects.js';
import { NodeInfo, podKey } from './framework.js';

/**
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/cache.Snapshot
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/cache.NewEmptySnapshot
 */
export class Snapshot {
  nodeInfoList: NodeInfo[] = [];
  nodeInfoMap = new Map<string, NodeInfo>();
  listGeneration = -1;

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.Snapshot).NumNodes */
  numNodes(): number {
    return this.nodeInfoList.length;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.Snapshot).Get */
  get(name: string): NodeInfo | undefined {
    return this.nodeInfoMap.get(name);
  }
}

interface PodState {
  pod: Pod;
  bindingFinished: boolean;
}

/**
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl
 * @mirrors k8s.io/kubernetes/pkg/scheduler/internal/cache.New
 */
export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  private readonly assumedPods = new Set<string>();
  /** Bumped when the set of nodes changes, so the snapshot knows to rebuild its list. */
  private nodeSetGeneration = 0;

  /**
   * Counts the pod on its node before it is bound.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).AssumePod
   */
  assumePod(pod: Pod): Error | undefined {
    const key = podKey(pod);
    if (this.podStates.has(key))
      return new Error(
        `pod ${pod.metadata.namespace}/${pod.metadata.name} is in the cache, so can't be assumed`,
      );
    this.addPodToNode(pod);
    this.podStates.set(key, { pod, bindingFinished: false });
    this.assumedPods.add(key);
    return undefined;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).FinishBinding */
  finishBinding(pod: Pod): void {
    const state = this.podStates.get(podKey(pod));
    if (state && this.assumedPods.has(podKey(pod))) state.bindingFinished = true;
  }

  /**
   * Undoes AssumePod after a failed binding.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).ForgetPod
   */
  forgetPod(pod: Pod): Error | undefined {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (!state || !this.assumedPods.has(key))
      return new Error(`pod ${pod.metadata.name} wasn't assumed so cannot be forgotten`);
    this.removePodFromNode(state.pod);
    this.podStates.delete(key);
    this.assumedPods.delete(key);
    return undefined;
  }

  /**
   * A bound pod seen by the informer: confirms an assumed pod (with its real node) or adds it.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).AddPod
   */
  addPod(pod: Pod): void {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (state && this.assumedPods.has(key)) {
      if (state.pod.spec.nodeName !== pod.spec.nodeName) {
        // Bound somewhere else than assumed (another scheduler won): move it.
        this.removePodFromNode(state.pod);
        this.addPodToNode(pod);
      } else {
        this.nodes.get(pod.spec.nodeName!)?.addPod(pod);
      }
      this.assumedPods.delete(key);
      this.podStates.set(key, { pod, bindingFinished: true });
      return;
    }
    if (state) return; // already added
    this.addPodToNode(pod);
    this.podStates.set(key, { pod, bindingFinished: true });
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).UpdatePod */
  updatePod(oldPod: Pod, newPod: Pod): void {
    const key = podKey(oldPod);
    if (!this.podStates.has(key) || this.assumedPods.has(key)) return;
    this.removePodFromNode(oldPod);
    this.addPodToNode(newPod);
    this.podStates.set(key, { pod: newPod, bindingFinished: true });
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).RemovePod */
  removePod(pod: Pod): void {
    const key = podKey(pod);
    const state = this.podStates.get(key);
    if (!state) return;
    this.removePodFromNode(state.pod);
    this.podStates.delete(key);
    this.assumedPods.delete(key);
  }

  isAssumedPod(pod: Pod): boolean {
    return this.assumedPods.has(podKey(pod));
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).AddNode */
  addNode(node: Node): NodeInfo {
    let info = this.nodes.get(node.metadata.name);
    if (info) {
      info.setNode(node);
    } else {
      info = new NodeInfo(node);
      this.nodes.set(node.metadata.name, info);
      this.nodeSetGeneration++;
    }
    return info;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).UpdateNode */
  updateNode(_oldNode: Node, newNode: Node): NodeInfo {
    return this.addNode(newNode);
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).RemoveNode */
  removeNode(node: Node): void {
    if (this.nodes.delete(node.metadata.name)) this.nodeSetGeneration++;
  }

  /** @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).NodeCount */
  nodeCount(): number {
    return this.nodes.size;
  }

  /**
   * Brings the snapshot up to date at the start of a scheduling cycle.
   * @mirrors (*k8s.io/kubernetes/pkg/scheduler/internal/cache.cacheImpl).UpdateSnapshot
   */
  updateSnapshot(snapshot: Snapshot): void {
    if (snapshot.listGeneration === this.nodeSetGeneration) return;
    snapshot.nodeInfoList = [...this.nodes.values()];
    snapshot.nodeInfoMap = new Map(this.nodes);
    snapshot.listGeneration = this.nodeSetGeneration;
  }

  private addPodToNode(pod: Pod): void {
    const nodeName = pod.spec.nodeName;
    if (!nodeName) return;
    // A pod can show up before its node (Go keeps a NodeInfo without a node for it); the twin
    // counts it once the node arrives and the pod is updated.
    this.nodes.get(nodeName)?.addPod(pod);
  }

  private removePodFromNode(pod: Pod): void {
    const nodeName = pod.spec.nodeName;
    if (nodeName) this.nodes.get(nodeName)?.removePod(pod);
  }
}
