export default function Page() {
  return <h1>web3.$category</h1>;
}
