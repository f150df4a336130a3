from setuptools import setup

setup(name='pyrobot_gym',
      version = '1.0',
      install_requires=['gym', 'numpy', 'rospy']
)
